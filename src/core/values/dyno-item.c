/* dyno-item.c: refcounted, immutable items in one allocation
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "dyno-value.h"

#include <stdlib.h>
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

typedef struct {
  guint  index;
  guint  rank;   /* position in the list of names asked for first, else G_MAXUINT */
  char  *key;    /* natural, case-insensitive collation key */
  const char *name;
  gsize  len;
} OrderEntry;

static int
compare_order_entries (gconstpointer a,
                       gconstpointer b)
{
  const OrderEntry *ea = a;
  const OrderEntry *eb = b;
  int result;

  if (ea->rank != eb->rank)
    return ea->rank < eb->rank ? -1 : 1;
  result = strcmp (ea->key, eb->key);
  if (result != 0)
    return result;
  /* names that collate alike ("Price", "price") are still distinct: byte order decides */
  result = memcmp (ea->name, eb->name, MIN (ea->len, eb->len));
  if (result != 0)
    return result;
  return ea->len < eb->len ? -1 : ea->len > eb->len ? 1 : 0;
}

DynoItem *
dyno_item_new_ordered (const DynoItem     *item,
                       const char * const *first)
{
  const DynoValue *map;
  g_autoptr(DynoValueBuilder) builder = NULL;
  g_autofree OrderEntry *entries = NULL;
  guint n;

  g_return_val_if_fail (item != NULL, NULL);

  map = dyno_item_get_map (item);
  n = dyno_value_get_n_children (map);
  entries = g_new0 (OrderEntry, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *valid = NULL;
      g_autofree char *folded = NULL;

      entries[i].index = i;
      entries[i].name = dyno_value_get_member_name (map, i, &entries[i].len);
      entries[i].rank = G_MAXUINT;
      for (guint r = 0; first != NULL && first[r] != NULL; r++)
        if (strlen (first[r]) == entries[i].len &&
            memcmp (first[r], entries[i].name, entries[i].len) == 0)
          {
            entries[i].rank = r;
            break;
          }
      /* a name with a NUL in it collates by its text up to there, then byte order decides */
      valid = g_utf8_make_valid (entries[i].name, (gssize) strnlen (entries[i].name,
                                                                    entries[i].len));
      folded = g_utf8_casefold (valid, -1);
      entries[i].key = g_utf8_collate_key_for_filename (folded, -1);
    }
  qsort (entries, n, sizeof (OrderEntry), compare_order_entries);

  builder = dyno_value_builder_new ();
  dyno_value_builder_begin (builder, DYNO_VALUE_M);
  for (guint i = 0; i < n; i++)
    {
      dyno_value_builder_key (builder, entries[i].name, (gssize) entries[i].len);
      dyno_value_builder_add_value (builder, dyno_value_get_child (map, entries[i].index));
      g_free (entries[i].key);
    }
  if (!dyno_value_builder_end (builder, NULL))
    g_return_val_if_reached (dyno_item_ref ((DynoItem *) item));
  return dyno_item_new_take (dyno_value_builder_finish (builder));
}
