/* dyno-error.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "dyno-error.h"

#include <string.h>

/* An extended error domain: a DYNO_ERROR carries, beside its (translated) message, where in
 * the text it was found, so that nobody reads positions back out of a sentence. */
typedef struct {
  guint          line;     /* 1-based; 0: no location */
  guint          column;
  gpointer       extra;    /* a layer's own details (the client's service info) */
  GBoxedCopyFunc extra_copy;
  GDestroyNotify extra_free;
} DynoErrorPrivate;

static void
dyno_error_private_init (DynoErrorPrivate *priv)
{
  memset (priv, 0, sizeof *priv);
}

static void
dyno_error_private_copy (const DynoErrorPrivate *src,
                         DynoErrorPrivate       *dest)
{
  *dest = *src;
  if (src->extra != NULL)
    dest->extra = src->extra_copy (src->extra);
}

static void
dyno_error_private_clear (DynoErrorPrivate *priv)
{
  if (priv->extra != NULL && priv->extra_free != NULL)
    priv->extra_free (priv->extra);
  priv->extra = NULL;
}

G_DEFINE_EXTENDED_ERROR (DynoError, dyno_error)

void
dyno_error_set_location (GError *error,
                         guint   line,
                         guint   column)
{
  DynoErrorPrivate *priv;

  g_return_if_fail (error != NULL);

  if (error->domain != DYNO_ERROR)
    return;
  priv = dyno_error_get_private (error);
  if (priv == NULL)
    return;
  priv->line = line;
  priv->column = column;
}

gboolean
dyno_error_get_location (const GError *error,
                         guint        *out_line,
                         guint        *out_column)
{
  DynoErrorPrivate *priv = error != NULL && error->domain == DYNO_ERROR
                           ? dyno_error_get_private (error) : NULL;

  if (priv == NULL || priv->line == 0)
    return FALSE;
  if (out_line != NULL)
    *out_line = priv->line;
  if (out_column != NULL)
    *out_column = priv->column;
  return TRUE;
}

void
dyno_error_set_extra (GError         *error,
                      gpointer        data,
                      GBoxedCopyFunc  copy,
                      GDestroyNotify  free_func)
{
  DynoErrorPrivate *priv;

  g_return_if_fail (error != NULL);
  g_return_if_fail (data == NULL || copy != NULL);

  priv = error->domain == DYNO_ERROR ? dyno_error_get_private (error) : NULL;
  if (priv == NULL)
    {
      if (data != NULL && free_func != NULL)
        free_func (data);
      return;
    }
  dyno_error_private_clear (priv);
  priv->extra = data;
  priv->extra_copy = copy;
  priv->extra_free = free_func;
}

gpointer
dyno_error_get_extra (const GError   *error,
                      GBoxedCopyFunc  copy)
{
  DynoErrorPrivate *priv = error != NULL && error->domain == DYNO_ERROR
                           ? dyno_error_get_private (error) : NULL;

  if (priv == NULL || priv->extra == NULL || priv->extra_copy != copy)
    return NULL;
  return priv->extra;
}
