/* dyno-item.c: refcounted, immutable items in one allocation
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "dyno-value.h"

#include <string.h>

#include "dyno-value-private.h"

/* The header is followed directly by the encoded M value; the value bytes need no
 * alignment (dyno_read_u32 uses memcpy). */
struct _DynoItem {
  gint    ref_count;
  guint32 size;
  guint8  data[];
};

G_DEFINE_BOXED_TYPE (DynoItem, dyno_item, dyno_item_ref, dyno_item_unref)

DynoItem *
_dyno_item_new_from_encoded (const guint8 *data,
                             gsize         size)
{
  DynoItem *item;

  g_assert (size <= G_MAXUINT32);
  g_assert (data[0] == DYNO_VALUE_M);

  item = g_malloc (sizeof (DynoItem) + size);
  item->ref_count = 1;
  item->size = (guint32) size;
  memcpy (item->data, data, size);

  return item;
}

DynoItem *
dyno_item_new_take (DynoValue *map)
{
  DynoItem *item;

  g_return_val_if_fail (map != NULL, NULL);
  g_return_val_if_fail (dyno_value_get_kind (map) == DYNO_VALUE_M, NULL);

  item = _dyno_item_new_from_encoded ((const guint8 *) map, _dyno_value_encoded_size (map));
  dyno_value_free (map);

  return item;
}

DynoItem *
dyno_item_new_from_map (const DynoValue *map)
{
  g_return_val_if_fail (map != NULL, NULL);
  g_return_val_if_fail (dyno_value_get_kind (map) == DYNO_VALUE_M, NULL);

  return _dyno_item_new_from_encoded ((const guint8 *) map, _dyno_value_encoded_size (map));
}

DynoItem *
dyno_item_ref (DynoItem *item)
{
  g_return_val_if_fail (item != NULL, NULL);

  g_atomic_int_inc (&item->ref_count);
  return item;
}

void
dyno_item_unref (DynoItem *item)
{
  g_return_if_fail (item != NULL);

  if (g_atomic_int_dec_and_test (&item->ref_count))
    g_free (item);
}

const DynoValue *
dyno_item_get_map (const DynoItem *item)
{
  g_return_val_if_fail (item != NULL, NULL);

  return (const DynoValue *) item->data;
}

const DynoValue *
dyno_item_lookup (const DynoItem *item,
                  const char     *name)
{
  g_return_val_if_fail (item != NULL, NULL);
  g_return_val_if_fail (name != NULL, NULL);

  return dyno_value_lookup ((const DynoValue *) item->data, name);
}

guint
dyno_item_get_n_attributes (const DynoItem *item)
{
  g_return_val_if_fail (item != NULL, 0);

  return dyno_value_get_n_children ((const DynoValue *) item->data);
}

gsize
dyno_item_get_size (const DynoItem *item)
{
  const DynoValue *map;
  guint n;
  gsize size = 0;

  g_return_val_if_fail (item != NULL, 0);

  /* Top-level attributes: name bytes + value size, without the M overhead. */
  map = (const DynoValue *) item->data;
  n = dyno_value_get_n_children (map);
  for (guint i = 0; i < n; i++)
    {
      gsize name_len;

      dyno_value_get_member_name (map, i, &name_len);
      size += name_len + dyno_value_get_size (dyno_value_get_child (map, i));
    }

  return size;
}

gsize
dyno_item_get_memory_size (const DynoItem *item)
{
  g_return_val_if_fail (item != NULL, 0);

  /* The allocator's own bookkeeping (one word on glibc, rounded to 16 bytes) counts too. */
  return ((sizeof (DynoItem) + item->size + sizeof (gsize) + 15) & ~(gsize) 15);
}

gboolean
dyno_item_equal (const DynoItem *a,
                 const DynoItem *b)
{
  g_return_val_if_fail (a != NULL, FALSE);
  g_return_val_if_fail (b != NULL, FALSE);

  if (a == b)
    return TRUE;

  return dyno_value_equal ((const DynoValue *) a->data, (const DynoValue *) b->data);
}
