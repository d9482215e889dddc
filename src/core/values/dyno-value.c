/* dyno-value.c: DynamoDB AttributeValues in one compact, immutable block of memory
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "dyno-value.h"

#include <glib/gi18n-lib.h>
#include <stdlib.h>
#include <string.h>

#include "dyno-error.h"
#include "dyno-number.h"
#include "dyno-number-private.h"
#include "dyno-value-private.h"

static const char * const type_names[DYNO_VALUE_N_TYPES] = {
  "S", "N", "B", "BOOL", "NULL", "M", "L", "SS", "NS", "BS",
};

const char *
dyno_value_type_to_string (DynoValueType type)
{
  g_return_val_if_fail ((guint) type < DYNO_VALUE_N_TYPES, NULL);

  return type_names[type];
}

gboolean
dyno_value_type_from_string (const char    *text,
                             DynoValueType *out_type)
{
  g_return_val_if_fail (text != NULL, FALSE);

  for (guint i = 0; i < DYNO_VALUE_N_TYPES; i++)
    if (strcmp (text, type_names[i]) == 0)
      {
        if (out_type != NULL)
          *out_type = (DynoValueType) i;
        return TRUE;
      }

  return FALSE;
}

/* Encoded access */

static inline const guint8 *
bytes_of (const DynoValue *value)
{
  return (const guint8 *) value;
}

gsize
_dyno_value_encoded_size (const DynoValue *value)
{
  const guint8 *p = bytes_of (value);

  switch ((DynoValueType) p[0])
    {
    case DYNO_VALUE_S:
    case DYNO_VALUE_N:
      return (dyno_record_data (p + 1) - p) + dyno_record_len (p + 1) + 1;
    case DYNO_VALUE_B:
      return (dyno_record_data (p + 1) - p) + dyno_record_len (p + 1);
    case DYNO_VALUE_BOOL:
      return 2;
    case DYNO_VALUE_NULL:
      return 1;
    case DYNO_VALUE_M:
    case DYNO_VALUE_L:
    case DYNO_VALUE_SS:
    case DYNO_VALUE_NS:
    case DYNO_VALUE_BS:
      return dyno_container_total (p);
    default:
      g_assert_not_reached ();
    }
}

static inline guint32
container_n (const guint8 *p)
{
  return dyno_container_n (p);
}

static inline const guint8 *
container_entry (const guint8 *p,
                 guint         index)
{
  return dyno_container_entry (p, index);
}

/* For an M member record: the name, and the value that follows it. */
static inline const guint8 *
member_value (const guint8 *record)
{
  return dyno_record_data (record) + dyno_record_len (record) + 1;
}

/* GType */

GType
dyno_value_get_gtype (void)
{
  static gsize type_id = 0;

  if (g_once_init_enter (&type_id))
    {
      GType t = g_boxed_type_register_static (g_intern_static_string ("DynoValue"),
                                              (GBoxedCopyFunc) dyno_value_copy,
                                              (GBoxedFreeFunc) dyno_value_free);
      g_once_init_leave (&type_id, t);
    }

  return type_id;
}

/* Constructors */

static DynoValue *
new_sized_scalar (DynoValueType  type,
                  const void    *data,
                  gsize          len,
                  gboolean       nul)
{
  guint8 *p;
  gsize h;

  g_return_val_if_fail (len <= G_MAXUINT32 - 64, NULL);

  p = g_malloc (1 + dyno_len_prefix_size (len) + len + (nul ? 1 : 0));
  p[0] = type;
  h = 1 + dyno_write_len (p + 1, len);
  if (len > 0)
    memcpy (p + h, data, len);
  if (nul)
    p[h + len] = '\0';

  return (DynoValue *) p;
}

DynoValue *
dyno_value_new_string (const char *utf8,
                       gssize      len)
{
  g_return_val_if_fail (utf8 != NULL || len == 0, NULL);

  if (len < 0)
    len = strlen (utf8);

  return new_sized_scalar (DYNO_VALUE_S, utf8, len, TRUE);
}

DynoValue *
dyno_value_new_number (const char  *decimal,
                       gssize       len,
                       GError     **error)
{
  g_autofree char *canonical = NULL;

  g_return_val_if_fail (decimal != NULL || len == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  canonical = dyno_number_canonicalize (decimal != NULL ? decimal : "", len, error);
  if (canonical == NULL)
    return NULL;

  return new_sized_scalar (DYNO_VALUE_N, canonical, strlen (canonical), TRUE);
}

DynoValue *
dyno_value_new_binary (const guint8 *data,
                       gsize         len)
{
  g_return_val_if_fail (data != NULL || len == 0, NULL);

  return new_sized_scalar (DYNO_VALUE_B, data, len, FALSE);
}

DynoValue *
dyno_value_new_bool (gboolean value)
{
  guint8 *p = g_malloc (2);

  p[0] = DYNO_VALUE_BOOL;
  p[1] = value ? 1 : 0;

  return (DynoValue *) p;
}

DynoValue *
dyno_value_new_null (void)
{
  guint8 *p = g_malloc (1);

  p[0] = DYNO_VALUE_NULL;

  return (DynoValue *) p;
}

DynoValue *
dyno_value_copy (const DynoValue *value)
{
  g_return_val_if_fail (value != NULL, NULL);

  return g_memdup2 (value, _dyno_value_encoded_size (value));
}

void
dyno_value_free (DynoValue *value)
{
  g_free (value);
}

/* Accessors */

DynoValueType
dyno_value_get_kind (const DynoValue *value)
{
  g_return_val_if_fail (value != NULL, DYNO_VALUE_NULL);

  return (DynoValueType) value->type;
}

const char *
dyno_value_get_string (const DynoValue *value,
                       gsize           *len)
{
  const guint8 *p;

  g_return_val_if_fail (value != NULL, NULL);
  g_return_val_if_fail (value->type == DYNO_VALUE_S || value->type == DYNO_VALUE_N, NULL);

  p = bytes_of (value);
  if (len != NULL)
    *len = dyno_record_len (p + 1);

  return (const char *) dyno_record_data (p + 1);
}

const guint8 *
dyno_value_get_binary (const DynoValue *value,
                       gsize           *len)
{
  const guint8 *p;

  g_return_val_if_fail (value != NULL, NULL);
  g_return_val_if_fail (value->type == DYNO_VALUE_B, NULL);

  p = bytes_of (value);
  if (len != NULL)
    *len = dyno_record_len (p + 1);

  return dyno_record_data (p + 1);
}

gboolean
dyno_value_get_bool (const DynoValue *value)
{
  g_return_val_if_fail (value != NULL, FALSE);
  g_return_val_if_fail (value->type == DYNO_VALUE_BOOL, FALSE);

  return bytes_of (value)[1] != 0;
}

guint
dyno_value_get_n_children (const DynoValue *value)
{
  g_return_val_if_fail (value != NULL, 0);

  if (!dyno_value_type_is_container (value->type))
    return 0;

  return container_n (bytes_of (value));
}

const DynoValue *
dyno_value_get_child (const DynoValue *value,
                      guint            index)
{
  const guint8 *entry;

  g_return_val_if_fail (value != NULL, NULL);
  g_return_val_if_fail (dyno_value_type_is_container (value->type), NULL);
  g_return_val_if_fail (index < container_n (bytes_of (value)), NULL);

  entry = container_entry (bytes_of (value), index);
  if (value->type == DYNO_VALUE_M)
    entry = member_value (entry);

  return (const DynoValue *) entry;
}

const char *
dyno_value_get_member_name (const DynoValue *value,
                            guint            index,
                            gsize           *len)
{
  const guint8 *entry;

  g_return_val_if_fail (value != NULL, NULL);
  g_return_val_if_fail (value->type == DYNO_VALUE_M, NULL);
  g_return_val_if_fail (index < container_n (bytes_of (value)), NULL);

  entry = container_entry (bytes_of (value), index);
  if (len != NULL)
    *len = dyno_record_len (entry);

  return (const char *) dyno_record_data (entry);
}

const DynoValue *
dyno_value_lookup (const DynoValue *map,
                   const char      *name)
{
  const guint8 *p;
  gsize name_len;
  guint n;

  g_return_val_if_fail (map != NULL, NULL);
  g_return_val_if_fail (map->type == DYNO_VALUE_M, NULL);
  g_return_val_if_fail (name != NULL, NULL);

  p = bytes_of (map);
  n = container_n (p);
  name_len = strlen (name);

  /* A name kept as a C string holds a NUL as C0 80 (see dyno-json.h), which valid UTF-8
   * never contains: look up the name with its NULs. */
  if (G_UNLIKELY (strstr (name, "\xC0\x80") != NULL))
    {
      g_autofree char *bytes = NULL;

      for (const char *q = name; *q != '\0'; q++)
        if ((guchar) q[0] == 0xC0 && (guchar) q[1] == 0x80)
          name_len--;
      bytes = g_malloc (name_len + 1);
      {
        gsize k = 0;

        for (const char *q = name; *q != '\0'; q++)
          {
            if ((guchar) q[0] == 0xC0 && (guchar) q[1] == 0x80)
              {
                bytes[k++] = '\0';
                q++;
              }
            else
              bytes[k++] = *q;
          }
      }
      for (guint i = 0; i < n; i++)
        {
          const guint8 *entry = container_entry (p, i);

          if (dyno_record_len (entry) == name_len &&
              memcmp (dyno_record_data (entry), bytes, name_len) == 0)
            return (const DynoValue *) member_value (entry);
        }
      return NULL;
    }

  for (guint i = 0; i < n; i++)
    {
      const guint8 *entry = container_entry (p, i);

      if (dyno_record_len (entry) == name_len &&
          memcmp (dyno_record_data (entry), name, name_len) == 0)
        return (const DynoValue *) member_value (entry);
    }

  return NULL;
}

/* Ordering, equality, hashing */

static int
compare_bytes (const guint8 *a,
               gsize         la,
               const guint8 *b,
               gsize         lb)
{
  int r = memcmp (a, b, MIN (la, lb));

  if (r != 0)
    return r < 0 ? -1 : 1;
  if (la != lb)
    return la < lb ? -1 : 1;
  return 0;
}

static int
compare_names (const guint8 *ra,
               const guint8 *rb)
{
  return compare_bytes (dyno_record_data (ra), dyno_record_len (ra),
                        dyno_record_data (rb), dyno_record_len (rb));
}

static int
compare_member_records (gconstpointer a,
                        gconstpointer b,
                        gpointer      user_data)
{
  return compare_names (*(const guint8 * const *) a, *(const guint8 * const *) b);
}

static int
compare_value_ptrs (gconstpointer a,
                    gconstpointer b,
                    gpointer      user_data)
{
  return dyno_value_compare (*(const DynoValue * const *) a, *(const DynoValue * const *) b);
}

/* Children of a container as an array of entry pointers, sorted when the container's
 * order does not matter (M by name, sets by value). */
static const guint8 **
sorted_entries (const guint8 *p)
{
  guint n = container_n (p);
  const guint8 **entries = g_new (const guint8 *, MAX (n, 1));

  for (guint i = 0; i < n; i++)
    entries[i] = container_entry (p, i);

  if (p[0] == DYNO_VALUE_M)
    g_qsort_with_data (entries, n, sizeof *entries, compare_member_records, NULL);
  else if (p[0] != DYNO_VALUE_L)
    g_qsort_with_data (entries, n, sizeof *entries, compare_value_ptrs, NULL);

  return entries;
}

int
dyno_value_compare (const DynoValue *a,
                    const DynoValue *b)
{
  const guint8 *pa, *pb;
  guint na, nb;
  g_autofree const guint8 **ea = NULL;
  g_autofree const guint8 **eb = NULL;

  g_return_val_if_fail (a != NULL, 0);
  g_return_val_if_fail (b != NULL, 0);

  if (a->type != b->type)
    return a->type < b->type ? -1 : 1;

  pa = bytes_of (a);
  pb = bytes_of (b);

  switch ((DynoValueType) a->type)
    {
    case DYNO_VALUE_S:
    case DYNO_VALUE_B:
      return compare_names (pa + 1, pb + 1);
    case DYNO_VALUE_N:
      return dyno_number_compare ((const char *) dyno_record_data (pa + 1),
                                  (const char *) dyno_record_data (pb + 1));
    case DYNO_VALUE_BOOL:
      return (int) pa[1] - (int) pb[1];
    case DYNO_VALUE_NULL:
      return 0;
    case DYNO_VALUE_M:
    case DYNO_VALUE_L:
    case DYNO_VALUE_SS:
    case DYNO_VALUE_NS:
    case DYNO_VALUE_BS:
      break;
    default:
      g_assert_not_reached ();
    }

  /* Containers: lexicographic over children (sorted where order does not matter). */
  na = container_n (pa);
  nb = container_n (pb);
  ea = sorted_entries (pa);
  eb = sorted_entries (pb);

  for (guint i = 0; i < MIN (na, nb); i++)
    {
      int r;

      if (a->type == DYNO_VALUE_M)
        {
          r = compare_names (ea[i], eb[i]);
          if (r == 0)
            r = dyno_value_compare ((const DynoValue *) member_value (ea[i]),
                                    (const DynoValue *) member_value (eb[i]));
        }
      else
        r = dyno_value_compare ((const DynoValue *) ea[i], (const DynoValue *) eb[i]);

      if (r != 0)
        return r;
    }

  if (na != nb)
    return na < nb ? -1 : 1;
  return 0;
}

gboolean
dyno_value_equal (const DynoValue *a,
                  const DynoValue *b)
{
  const guint8 *pa, *pb;
  guint n;

  g_return_val_if_fail (a != NULL, FALSE);
  g_return_val_if_fail (b != NULL, FALSE);

  if (a->type != b->type)
    return FALSE;

  pa = bytes_of (a);
  pb = bytes_of (b);

  switch ((DynoValueType) a->type)
    {
    case DYNO_VALUE_S:
    case DYNO_VALUE_N:
    case DYNO_VALUE_B:
      /* Numbers are canonical, so equal numbers have equal text. */
      return dyno_record_len (pa + 1) == dyno_record_len (pb + 1) &&
             memcmp (dyno_record_data (pa + 1), dyno_record_data (pb + 1),
                     dyno_record_len (pa + 1)) == 0;
    case DYNO_VALUE_BOOL:
      return pa[1] == pb[1];
    case DYNO_VALUE_NULL:
      return TRUE;
    case DYNO_VALUE_L:
      n = container_n (pa);
      if (n != container_n (pb))
        return FALSE;
      for (guint i = 0; i < n; i++)
        if (!dyno_value_equal ((const DynoValue *) container_entry (pa, i),
                               (const DynoValue *) container_entry (pb, i)))
          return FALSE;
      return TRUE;
    case DYNO_VALUE_M:
      n = container_n (pa);
      if (n != container_n (pb))
        return FALSE;
      /* Member names are unique, so equal counts and every member found equal suffice. */
      for (guint i = 0; i < n; i++)
        {
          const guint8 *ra = container_entry (pa, i);
          const guint8 *rb = NULL;

          /* Same order is the common case; fall back to a search. */
          if (compare_names (ra, container_entry (pb, i)) == 0)
            rb = container_entry (pb, i);
          else
            for (guint j = 0; j < n && rb == NULL; j++)
              if (compare_names (ra, container_entry (pb, j)) == 0)
                rb = container_entry (pb, j);

          if (rb == NULL ||
              !dyno_value_equal ((const DynoValue *) member_value (ra),
                                 (const DynoValue *) member_value (rb)))
            return FALSE;
        }
      return TRUE;
    case DYNO_VALUE_SS:
    case DYNO_VALUE_NS:
    case DYNO_VALUE_BS:
      if (container_n (pa) != container_n (pb))
        return FALSE;
      return dyno_value_compare (a, b) == 0;
    default:
      g_assert_not_reached ();
    }
}

static guint
hash_bytes (guint         seed,
            const guint8 *p,
            gsize         len)
{
  guint h = seed ^ 2166136261u;

  for (gsize i = 0; i < len; i++)
    h = (h ^ p[i]) * 16777619u;

  return h;
}

guint
dyno_value_hash (const DynoValue *value)
{
  const guint8 *p;
  guint h, n;

  g_return_val_if_fail (value != NULL, 0);

  p = bytes_of (value);
  h = hash_bytes (p[0], NULL, 0);

  switch ((DynoValueType) p[0])
    {
    case DYNO_VALUE_S:
    case DYNO_VALUE_N:
    case DYNO_VALUE_B:
      return hash_bytes (p[0], dyno_record_data (p + 1), dyno_record_len (p + 1));
    case DYNO_VALUE_BOOL:
      return h ^ (p[1] ? 0x9e3779b9u : 0);
    case DYNO_VALUE_NULL:
      return h;
    case DYNO_VALUE_L:
      n = container_n (p);
      for (guint i = 0; i < n; i++)
        h = h * 31 + dyno_value_hash ((const DynoValue *) container_entry (p, i));
      return h;
    case DYNO_VALUE_M:
      /* Order-independent, like equality. */
      n = container_n (p);
      for (guint i = 0; i < n; i++)
        {
          const guint8 *r = container_entry (p, i);

          h += hash_bytes (0, dyno_record_data (r), dyno_record_len (r)) * 31 +
               dyno_value_hash ((const DynoValue *) member_value (r));
        }
      return h;
    case DYNO_VALUE_SS:
    case DYNO_VALUE_NS:
    case DYNO_VALUE_BS:
      n = container_n (p);
      for (guint i = 0; i < n; i++)
        h += dyno_value_hash ((const DynoValue *) container_entry (p, i));
      return h;
    default:
      g_assert_not_reached ();
    }
}

gsize
dyno_value_get_size (const DynoValue *value)
{
  const guint8 *p;
  gsize size;
  guint n;

  g_return_val_if_fail (value != NULL, 0);

  p = bytes_of (value);
  switch ((DynoValueType) p[0])
    {
    case DYNO_VALUE_S:
    case DYNO_VALUE_B:
      return dyno_record_len (p + 1);
    case DYNO_VALUE_N:
      return dyno_number_get_size ((const char *) dyno_record_data (p + 1));
    case DYNO_VALUE_BOOL:
    case DYNO_VALUE_NULL:
      return 1;
    case DYNO_VALUE_L:
      n = container_n (p);
      size = 3;
      for (guint i = 0; i < n; i++)
        size += 1 + dyno_value_get_size ((const DynoValue *) container_entry (p, i));
      return size;
    case DYNO_VALUE_M:
      n = container_n (p);
      size = 3;
      for (guint i = 0; i < n; i++)
        {
          const guint8 *r = container_entry (p, i);

          size += 1 + dyno_record_len (r) + dyno_value_get_size ((const DynoValue *)
                                                                member_value (r));
        }
      return size;
    case DYNO_VALUE_SS:
    case DYNO_VALUE_NS:
    case DYNO_VALUE_BS:
      n = container_n (p);
      size = 0;
      for (guint i = 0; i < n; i++)
        size += dyno_value_get_size ((const DynoValue *) container_entry (p, i));
      return size;
    default:
      g_assert_not_reached ();
    }
}

gsize
dyno_value_get_encoded_size (const DynoValue *value)
{
  g_return_val_if_fail (value != NULL, 0);

  return _dyno_value_encoded_size (value);
}

/* Builder */

void
_dyno_value_builder_grow (DynoValueBuilder *builder,
                          gsize             extra)
{
  while (builder->len + extra > builder->cap)
    builder->cap = builder->cap ? builder->cap * 2 : 256;
  builder->buf = g_realloc (builder->buf, builder->cap);
}

void
_dyno_value_builder_grow_frames (DynoValueBuilder *builder)
{
  builder->frames_cap = MAX (16, builder->frames_cap * 2);
  builder->frames = g_renew (DynoBuilderFrame, builder->frames, builder->frames_cap);
}

void
_dyno_value_builder_grow_children (DynoValueBuilder *builder)
{
  builder->children_cap = MAX (64, builder->children_cap * 2);
  builder->children = g_renew (gsize, builder->children, builder->children_cap);
}

/* Called before every value is written: records where it starts in its container, and
 * checks the builder is in a state where a value may come. */
static gboolean
builder_begin_value (DynoValueBuilder *builder,
                     DynoValueType     type)
{
  DynoBuilderFrame *top = dyno_builder_top (builder);

  if (top == NULL)
    {
      g_return_val_if_fail (!builder->complete, FALSE);
      return TRUE;
    }

  if (top->type == DYNO_VALUE_M)
    {
      /* The member record (and its position) was recorded by key(). */
      g_return_val_if_fail (builder->key_pending, FALSE);
      builder->key_pending = FALSE;
      return TRUE;
    }

  if (top->type == DYNO_VALUE_SS)
    g_return_val_if_fail (type == DYNO_VALUE_S, FALSE);
  else if (top->type == DYNO_VALUE_NS)
    g_return_val_if_fail (type == DYNO_VALUE_N, FALSE);
  else if (top->type == DYNO_VALUE_BS)
    g_return_val_if_fail (type == DYNO_VALUE_B, FALSE);

  dyno_builder_push_child (builder, builder->len);
  return TRUE;
}

static void
builder_end_value (DynoValueBuilder *builder)
{
  if (builder->n_frames == 0)
    builder->complete = TRUE;
}

DynoValueBuilder *
dyno_value_builder_new (void)
{
  DynoValueBuilder *builder = g_new0 (DynoValueBuilder, 1);


  return builder;
}

void
dyno_value_builder_free (DynoValueBuilder *builder)
{
  if (builder == NULL)
    return;

  g_free (builder->buf);
  g_free (builder->frames);
  g_free (builder->children);
  g_free (builder);
}

void
_dyno_value_builder_reset (DynoValueBuilder *builder)
{
  builder->len = 0;
  builder->n_frames = 0;
  builder->n_nested = 0;
  builder->n_children = 0;
  builder->key_pending = FALSE;
  builder->complete = FALSE;
}

void
dyno_value_builder_reset (DynoValueBuilder *builder)
{
  g_return_if_fail (builder != NULL);

  _dyno_value_builder_reset (builder);
}

void
dyno_value_builder_begin (DynoValueBuilder *builder,
                          DynoValueType     container)
{
  DynoBuilderFrame frame;
  guint8 header[DYNO_VALUE_CONTAINER_HEADER] = { 0 };

  g_return_if_fail (builder != NULL);
  g_return_if_fail (dyno_value_type_is_container (container) &&
                    (guint) container < DYNO_VALUE_N_TYPES);

  if (!builder_begin_value (builder, container))
    return;

  frame.type = container;
  frame.start = builder->len;
  frame.first_child = builder->n_children;
  if (builder->n_frames == builder->frames_cap)
    _dyno_value_builder_grow_frames (builder);
  builder->frames[builder->n_frames++] = frame;
  if (container == DYNO_VALUE_M || container == DYNO_VALUE_L)
    builder->n_nested++;

  header[0] = container;
  dyno_builder_put (builder, header, sizeof header);
}

void
dyno_value_builder_key (DynoValueBuilder *builder,
                        const char       *name,
                        gssize            len)
{
  DynoBuilderFrame *top;

  g_return_if_fail (builder != NULL);
  g_return_if_fail (name != NULL || len == 0);

  top = dyno_builder_top (builder);
  g_return_if_fail (top != NULL && top->type == DYNO_VALUE_M);
  g_return_if_fail (!builder->key_pending);

  if (len < 0)
    len = strlen (name);

  dyno_builder_fast_key (builder, name, len);
}

static void
builder_add_sized (DynoValueBuilder *builder,
                   DynoValueType     type,
                   const void       *data,
                   gsize             len,
                   gboolean          nul)
{
  if (!builder_begin_value (builder, type))
    return;

  dyno_builder_reserve (builder, 1 + 5 + len + 1);
  builder->buf[builder->len++] = type;
  builder->len += dyno_write_len (builder->buf + builder->len, len);
  dyno_builder_put (builder, data, len);
  if (nul)
    builder->buf[builder->len++] = '\0';

  builder_end_value (builder);
}

void
dyno_value_builder_add_string (DynoValueBuilder *builder,
                               const char       *utf8,
                               gssize            len)
{
  g_return_if_fail (builder != NULL);
  g_return_if_fail (utf8 != NULL || len == 0);

  if (len < 0)
    len = strlen (utf8);

  builder_add_sized (builder, DYNO_VALUE_S, utf8, len, TRUE);
}

gboolean
dyno_value_builder_add_number (DynoValueBuilder *builder,
                               const char       *decimal,
                               gssize            len,
                               GError          **error)
{
  char canonical[DYNO_NUMBER_TEXT_MAX];
  gssize canonical_len;

  g_return_val_if_fail (builder != NULL, FALSE);
  g_return_val_if_fail (decimal != NULL || len == 0, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (len < 0)
    len = strlen (decimal);

  canonical_len = _dyno_number_canonicalize_into (decimal != NULL ? decimal : "", len,
                                                  canonical, error);
  if (canonical_len < 0)
    return FALSE;

  builder_add_sized (builder, DYNO_VALUE_N, canonical, canonical_len, TRUE);
  return TRUE;
}

void
dyno_value_builder_add_binary (DynoValueBuilder *builder,
                               const guint8     *data,
                               gsize             len)
{
  g_return_if_fail (builder != NULL);
  g_return_if_fail (data != NULL || len == 0);

  builder_add_sized (builder, DYNO_VALUE_B, data, len, FALSE);
}

void
dyno_value_builder_add_bool (DynoValueBuilder *builder,
                             gboolean          value)
{
  guint8 bytes[2] = { DYNO_VALUE_BOOL, value ? 1 : 0 };

  g_return_if_fail (builder != NULL);

  if (!builder_begin_value (builder, DYNO_VALUE_BOOL))
    return;
  dyno_builder_put (builder, bytes, 2);
  builder_end_value (builder);
}

void
dyno_value_builder_add_null (DynoValueBuilder *builder)
{
  guint8 byte = DYNO_VALUE_NULL;

  g_return_if_fail (builder != NULL);

  if (!builder_begin_value (builder, DYNO_VALUE_NULL))
    return;
  dyno_builder_put (builder, &byte, 1);
  builder_end_value (builder);
}

void
dyno_value_builder_add_value (DynoValueBuilder *builder,
                              const DynoValue  *value)
{
  g_return_if_fail (builder != NULL);
  g_return_if_fail (value != NULL);

  if (!builder_begin_value (builder, value->type))
    return;
  dyno_builder_put (builder, value, _dyno_value_encoded_size (value));
  builder_end_value (builder);
}

/* Describes a set's members the way DynamoDB's duplicate message does: "[a, b, a]". */
static char *
describe_set_members (const guint8 *buf,
                      const gsize  *offsets,
                      guint         n)
{
  GString *s = g_string_new ("[");

  for (guint i = 0; i < n; i++)
    {
      const guint8 *child = buf + offsets[i];
      gsize len = dyno_record_len (child + 1);
      const guint8 *data = dyno_record_data (child + 1);

      if (i > 0)
        g_string_append (s, ", ");
      if (s->len > 200)
        {
          g_string_append (s, "\u2026");
          break;
        }
      if (child[0] == DYNO_VALUE_B)
        {
          g_autofree char *b64 = g_base64_encode (data, MIN (len, 60));
          g_string_append (s, b64);
        }
      else
        {
          g_autofree char *text = g_utf8_make_valid ((const char *) data, MIN (len, 80));
          g_string_append (s, text);
        }
      if (len > (child[0] == DYNO_VALUE_B ? 60u : 80u))
        g_string_append (s, "\u2026");
    }
  g_string_append_c (s, ']');

  return g_string_free (s, FALSE);
}

/* Set members (S/N/B, numbers canonical) and map member names are all "[u32 len][bytes]"
 * records, equal exactly when their bytes are equal.  @skip is where the record starts in
 * each child (1 past a set member's type byte, 0 for a map member). */
static int
compare_records (gconstpointer a,
                 gconstpointer b)
{
  const guint8 *ra = *(const guint8 * const *) a;
  const guint8 *rb = *(const guint8 * const *) b;

  return compare_bytes (dyno_record_data (ra), dyno_record_len (ra),
                        dyno_record_data (rb), dyno_record_len (rb));
}

static const guint8 *
find_duplicate (const guint8 *buf,
                const gsize  *offsets,
                guint         n,
                gsize         skip)
{
  const guint8 *dup = NULL;

  if (n <= 32)
    {
      /* A tiny open-addressing set on length and a few bytes: bytes are compared only for
       * records that land in the same cluster and have the same length. */
      guint8 slots[64];

      memset (slots, 0xFF, sizeof slots);
      for (guint i = 0; i < n; i++)
        {
          const guint8 *r = buf + offsets[i] + skip;
          gsize len = dyno_record_len (r);
          const guint8 *data = dyno_record_data (r);
          guint32 h = (guint32) len;
          guint j;

          if (len > 0)
            h ^= ((guint32) data[0] << 8) ^ ((guint32) data[len - 1] << 16) ^
                 ((guint32) data[len / 2] << 24);
          j = (h * 0x9E3779B1u) >> 26;

          while (slots[j] != 0xFF)
            {
              const guint8 *other = buf + offsets[slots[j]] + skip;

              if (dyno_record_len (other) == len &&
                  memcmp (dyno_record_data (other), data, len) == 0)
                return r;
              j = (j + 1) & 63;
            }
          slots[j] = (guint8) i;
        }
      return NULL;
    }
  else
    {
      g_autofree const guint8 **records = g_new (const guint8 *, n);

      for (guint i = 0; i < n; i++)
        records[i] = buf + offsets[i] + skip;
      qsort (records, n, sizeof *records, compare_records);
      for (guint i = 1; i < n && dup == NULL; i++)
        if (compare_records (&records[i - 1], &records[i]) == 0)
          dup = records[i];
    }

  return dup;
}

static gboolean
check_set (DynoValueBuilder  *builder,
           const DynoBuilderFrame       *frame,
           GError           **error)
{
  guint n = builder->n_children - frame->first_child;
  /* No pointer arithmetic on a NULL array when the container is empty. */
  const gsize *offsets = n > 0 ? builder->children + frame->first_child : NULL;

  if (n == 0)
    {
      const char *what = frame->type == DYNO_VALUE_SS ? _("A string set may not be empty")
                       : frame->type == DYNO_VALUE_NS ? _("A number set may not be empty")
                       : _("Binary sets should not be empty");

      g_set_error (error, DYNO_ERROR, DYNO_ERROR_INVALID_VALUE,
                   _("One or more parameter values were invalid: %s"), what);
      return FALSE;
    }

  if (find_duplicate (builder->buf, offsets, n, 1) != NULL)
    {
      g_autofree char *list = describe_set_members (builder->buf, offsets, n);

      if (frame->type == DYNO_VALUE_SS)
        g_set_error (error, DYNO_ERROR, DYNO_ERROR_INVALID_VALUE,
                     _("One or more parameter values were invalid: Input collection %s "
                       "contains duplicates."), list);
      else
        g_set_error (error, DYNO_ERROR, DYNO_ERROR_INVALID_VALUE,
                     /* Translators: DynamoDB's wording: the set as text, then its type (such as
                      * SS). */
                     _("One or more parameter values were invalid: Input collection %s "
                       "of type %s contains duplicates."), list,
                     type_names[frame->type]);
      return FALSE;
    }

  return TRUE;
}

/* Member names must be unique, or lookups and equality would be ambiguous. */
static gboolean
check_map (DynoValueBuilder  *builder,
           const DynoBuilderFrame       *frame,
           GError           **error)
{
  guint n = builder->n_children - frame->first_child;
  /* No pointer arithmetic on a NULL array when the container is empty. */
  const gsize *offsets = n > 0 ? builder->children + frame->first_child : NULL;
  const guint8 *dup = find_duplicate (builder->buf, offsets, n, 0);

  if (dup != NULL)
    {
      g_autofree char *name = g_utf8_make_valid ((const char *) dyno_record_data (dup),
                                                 MIN (dyno_record_len (dup), 200));

      g_set_error (error, DYNO_ERROR, DYNO_ERROR_INVALID_VALUE,
                   _("The map has the attribute name \u201c%s\u201d more than once"), name);
      return FALSE;
    }

  return TRUE;
}

gboolean
dyno_value_builder_end (DynoValueBuilder  *builder,
                        GError           **error)
{
  DynoBuilderFrame frame;
  guint n;
  guint32 total, n32;

  g_return_val_if_fail (builder != NULL, FALSE);
  g_return_val_if_fail (builder->n_frames > 0, FALSE);
  g_return_val_if_fail (!builder->key_pending, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  frame = *dyno_builder_top (builder);
  n = builder->n_children - frame.first_child;

  if ((frame.type == DYNO_VALUE_M || frame.type == DYNO_VALUE_L) &&
      builder->n_nested > DYNO_VALUE_MAX_DEPTH)
    {
      g_set_error (error, DYNO_ERROR, DYNO_ERROR_INVALID_VALUE,
                   _("Maps and lists are nested more than %d levels deep (DynamoDB's limit)"),
                   DYNO_VALUE_MAX_DEPTH);
      _dyno_value_builder_reset (builder);
      return FALSE;
    }

  if ((frame.type >= DYNO_VALUE_SS && !check_set (builder, &frame, error)) ||
      (frame.type == DYNO_VALUE_M && !check_map (builder, &frame, error)))
    {
      _dyno_value_builder_reset (builder);
      return FALSE;
    }

  /* narrow (see dyno-value-private.h): the children move down over the header's spare
   * bytes, and every offset is 2 bytes */
  {
    gsize shift = DYNO_VALUE_CONTAINER_HEADER - DYNO_VALUE_NARROW_HEADER;
    gsize content = builder->len - frame.start - DYNO_VALUE_CONTAINER_HEADER;

    if (DYNO_VALUE_NARROW_HEADER + content + 2 * (gsize) n <= G_MAXUINT16)
      {
        guint8 *start = builder->buf + frame.start;
        guint16 total16, n16 = (guint16) n;

        memmove (start + DYNO_VALUE_NARROW_HEADER, start + DYNO_VALUE_CONTAINER_HEADER, content);
        builder->len -= shift;
        dyno_builder_reserve (builder, 2 * (gsize) n);
        for (guint i = 0; i < n; i++)
          {
            guint16 offset = (guint16) (builder->children[frame.first_child + i] - frame.start
                                        - shift);

            memcpy (builder->buf + builder->len, &offset, 2);
            builder->len += 2;
          }
        start = builder->buf + frame.start;
        total16 = (guint16) (builder->len - frame.start);
        start[1] = 2;
        memcpy (start + 2, &total16, 2);
        memcpy (start + 4, &n16, 2);
        goto done;
      }
  }

  dyno_builder_reserve (builder, 4 * (gsize) n);
  for (guint i = 0; i < n; i++)
    {
      gsize pos = builder->children[frame.first_child + i];

      dyno_builder_put_u32 (builder, (guint32) (pos - frame.start));
    }

  if (builder->len - frame.start > G_MAXUINT32)
    {
      g_set_error_literal (error, DYNO_ERROR, DYNO_ERROR_INVALID_VALUE,
                           _("The value is too large (over 4 GiB)"));
      _dyno_value_builder_reset (builder);
      return FALSE;
    }

  total = (guint32) (builder->len - frame.start);
  n32 = n;
  builder->buf[frame.start + 1] = 4;
  memcpy (builder->buf + frame.start + 2, &total, 4);
  memcpy (builder->buf + frame.start + 6, &n32, 4);

done:

  builder->n_children = frame.first_child;
  builder->n_frames--;
  if (frame.type == DYNO_VALUE_M || frame.type == DYNO_VALUE_L)
    builder->n_nested--;
  builder_end_value (builder);

  return TRUE;
}

DynoValue *
dyno_value_builder_finish (DynoValueBuilder *builder)
{
  DynoValue *value;

  g_return_val_if_fail (builder != NULL, NULL);
  g_return_val_if_fail (builder->complete, NULL);

  value = g_memdup2 (builder->buf, builder->len);
  _dyno_value_builder_reset (builder);

  return value;
}

DynoItem *
_dyno_value_builder_finish_item (DynoValueBuilder *builder)
{
  DynoItem *item;

  g_return_val_if_fail (builder->complete, NULL);
  g_return_val_if_fail (builder->buf[0] == DYNO_VALUE_M, NULL);

  item = _dyno_item_new_from_encoded (builder->buf, builder->len);
  _dyno_value_builder_reset (builder);

  return item;
}

void
dyno_string_append_visible (GString    *out,
                            const char *text,
                            gsize       len)
{
  const char *end, *nul;

  g_return_if_fail (out != NULL);
  g_return_if_fail (text != NULL || len == 0);

  if (len == 0)
    return;
  end = text + len;
  while ((nul = memchr (text, '\0', end - text)) != NULL)
    {
      g_string_append_len (out, text, nul - text);
      g_string_append (out, DYNO_VISIBLE_NUL);
      text = nul + 1;
    }
  g_string_append_len (out, text, end - text);
}

char *
dyno_string_dup_visible (const char *text,
                         gsize       len,
                         gboolean   *had_nul)
{
  GString *out;

  g_return_val_if_fail (text != NULL || len == 0, NULL);

  if (had_nul != NULL)
    *had_nul = len > 0 && memchr (text, '\0', len) != NULL;
  out = g_string_sized_new (len + 1);
  dyno_string_append_visible (out, text, len);
  return g_string_free (out, FALSE);
}

/* ---- key values as text ------------------------------------------------------------------- */

DynoValue *
dyno_value_new_from_key_text (const char     *text,
                              DynoValueType   type,
                              GError        **error)
{
  g_return_val_if_fail (text != NULL, NULL);

  switch (type)
    {
    case DYNO_VALUE_N:
      return dyno_value_new_number (text, -1, error);

    case DYNO_VALUE_B:
      {
        gsize len = 0;
        g_autofree guint8 *data = NULL;

        if (*text == '\0')
          return dyno_value_new_binary (NULL, 0);

        for (const char *p = text; *p; p++)
          if (!g_ascii_isalnum (*p) && *p != '+' && *p != '/' && *p != '=')
            {
              g_set_error (error, DYNO_ERROR, DYNO_ERROR_INVALID_VALUE,
                           _("“%s” is not base64: binary values are written in base64"), text);
              return NULL;
            }
        data = g_base64_decode (text, &len);
        return dyno_value_new_binary (data, len);
      }

    case DYNO_VALUE_S:
    default:
      return dyno_value_new_string (text, -1);
    }
}

char *
dyno_value_to_key_text (const DynoValue *value)
{
  g_return_val_if_fail (value != NULL, NULL);

  switch (dyno_value_get_kind (value))
    {
    case DYNO_VALUE_S:
    case DYNO_VALUE_N:
      return g_strdup (dyno_value_get_string (value, NULL));

    case DYNO_VALUE_B:
      {
        gsize len;
        const guint8 *data = dyno_value_get_binary (value, &len);
        return g_base64_encode (data, len);
      }

    default:
      return NULL;
    }
}
