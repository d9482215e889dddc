/* dyno-value.h: DynamoDB AttributeValues and items, compact and immutable
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

typedef enum {
  DYNO_VALUE_S,
  DYNO_VALUE_N,
  DYNO_VALUE_B,
  DYNO_VALUE_BOOL,
  DYNO_VALUE_NULL,
  DYNO_VALUE_M,
  DYNO_VALUE_L,
  DYNO_VALUE_SS,
  DYNO_VALUE_NS,
  DYNO_VALUE_BS,
} DynoValueType;

#define DYNO_VALUE_N_TYPES 10

/* "S", "N", … "BS" */
const char *dyno_value_type_to_string   (DynoValueType  type);
gboolean    dyno_value_type_from_string (const char    *text,
                                         DynoValueType *out_type);

/* A DynoValue is one encoded, immutable node (a scalar, or a container with its children in
 * the same block of memory).  Values you own come from the constructors, the builder,
 * dyno_value_copy() and the JSON readers; free them with dyno_value_free().  Values reached
 * through a container (children, map members, item attributes) are borrowed: they live as
 * long as the container.  Immutable values may be read from any thread. */
typedef struct _DynoValue DynoValue;

#define DYNO_TYPE_VALUE (dyno_value_get_gtype ())
GType          dyno_value_get_gtype        (void) G_GNUC_CONST;

DynoValue     *dyno_value_new_string       (const char      *utf8,
                                            gssize           len);
/* Validates and canonicalises (38 digits, range, `1e2` -> `100`). */
DynoValue     *dyno_value_new_number       (const char      *decimal,
                                            gssize           len,
                                            GError         **error);
DynoValue     *dyno_value_new_binary       (const guint8    *data,
                                            gsize            len);
DynoValue     *dyno_value_new_bool         (gboolean         value);
DynoValue     *dyno_value_new_null         (void);
DynoValue     *dyno_value_copy             (const DynoValue *value);
void           dyno_value_free             (DynoValue       *value);

DynoValueType  dyno_value_get_kind         (const DynoValue *value);
/* S: the UTF-8 text; N: the canonical decimal text.  NUL-terminated; len may be NULL. */
const char    *dyno_value_get_string       (const DynoValue *value,
                                            gsize           *len);
/* B: raw bytes (not base64). */
const guint8  *dyno_value_get_binary       (const DynoValue *value,
                                            gsize           *len);
gboolean       dyno_value_get_bool         (const DynoValue *value);

/* Containers: M (members), L (elements), SS/NS/BS (members as S/N/B children). */
guint          dyno_value_get_n_children   (const DynoValue *value);
const DynoValue *dyno_value_get_child      (const DynoValue *value,
                                            guint            index);
/* M only: the name of member @index. */
const char    *dyno_value_get_member_name  (const DynoValue *value,
                                            guint            index,
                                            gsize           *len);
/* M only: NULL when there is no such member. */
const DynoValue *dyno_value_lookup         (const DynoValue *map,
                                            const char      *name);

/* DynamoDB order for scalars of one type: S by UTF-8 bytes, N numerically, B by unsigned
 * bytes.  Values of different types order by type (S < N < B < …) so sorting is total. */
int            dyno_value_compare          (const DynoValue *a,
                                            const DynoValue *b);
/* Deep equality as DynamoDB sees it (set members unordered, M members unordered). */
gboolean       dyno_value_equal            (const DynoValue *a,
                                            const DynoValue *b);
guint          dyno_value_hash             (const DynoValue *value);
/* Size in bytes by DynamoDB's rules (dynamodb-facts.md §3.4). */
gsize          dyno_value_get_size         (const DynoValue *value);
/* Bytes of memory this value occupies in its encoded form. */
gsize          dyno_value_get_encoded_size (const DynoValue *value);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DynoValue, dyno_value_free)

/* A key value as a person types it in a field, typed by the key: S as is, N as a decimal,
 * B in base64 (an empty text is an empty value).  Other types read as S. */
DynoValue     *dyno_value_new_from_key_text (const char     *text,
                                             DynoValueType   type,
                                             GError        **error);
/* The reverse, for S, N and B values; NULL for any other type. */
char          *dyno_value_to_key_text      (const DynoValue *value);

/* Building values.  Scalars at the top level or inside a begun container; containers nest.
 * For an M, call dyno_value_builder_key() before each member.  SS/NS/BS take members with
 * add_string/add_number/add_binary; end() checks them as DynamoDB does (non-empty, no
 * duplicates) and reports DYNO_ERROR_INVALID_VALUE with DynamoDB's meaning. */
typedef struct _DynoValueBuilder DynoValueBuilder;

/* DynamoDB nests maps and lists at most 32 levels deep, an item's own map counting as the
 * first (checked against DynamoDB Local): dyno_value_builder_end() refuses deeper values. */
#define DYNO_VALUE_MAX_DEPTH 32

/* For display only: appends @len bytes of @text with each U+0000 shown as U+2400 (␀), which
 * a text widget can show (a NUL would end the text there).  Never parse the result back. */
#define DYNO_VISIBLE_NUL "\u2400"
void dyno_string_append_visible (GString    *out,
                                 const char *text,
                                 gsize       len);
/* The same as a new string; TRUE in *had_nul when @text held a NUL (may be NULL). */
char *dyno_string_dup_visible   (const char *text,
                                 gsize       len,
                                 gboolean   *had_nul);

DynoValueBuilder *dyno_value_builder_new        (void);
void              dyno_value_builder_free       (DynoValueBuilder *builder);
void              dyno_value_builder_begin      (DynoValueBuilder *builder,
                                                 DynoValueType     container);
void              dyno_value_builder_key        (DynoValueBuilder *builder,
                                                 const char       *name,
                                                 gssize            len);
void              dyno_value_builder_add_string (DynoValueBuilder *builder,
                                                 const char       *utf8,
                                                 gssize            len);
gboolean          dyno_value_builder_add_number (DynoValueBuilder *builder,
                                                 const char       *decimal,
                                                 gssize            len,
                                                 GError          **error);
void              dyno_value_builder_add_binary (DynoValueBuilder *builder,
                                                 const guint8     *data,
                                                 gsize             len);
void              dyno_value_builder_add_bool   (DynoValueBuilder *builder,
                                                 gboolean          value);
void              dyno_value_builder_add_null   (DynoValueBuilder *builder);
void              dyno_value_builder_add_value  (DynoValueBuilder *builder,
                                                 const DynoValue  *value);
gboolean          dyno_value_builder_end        (DynoValueBuilder *builder,
                                                 GError          **error);
/* The finished top-level value; the builder is reset and may be reused. */
DynoValue        *dyno_value_builder_finish     (DynoValueBuilder *builder);
/* Discards anything half built (end() also resets the builder when it fails). */
void              dyno_value_builder_reset      (DynoValueBuilder *builder);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DynoValueBuilder, dyno_value_builder_free)

/* An item: a refcounted, immutable attribute map (one M value in one allocation). */
typedef struct _DynoItem DynoItem;

#define DYNO_TYPE_ITEM (dyno_item_get_type ())
GType            dyno_item_get_type      (void) G_GNUC_CONST;

/* Takes ownership of @map, which must be an M. */
DynoItem        *dyno_item_new_take      (DynoValue       *map);
DynoItem        *dyno_item_new_from_map  (const DynoValue *map);
DynoItem        *dyno_item_ref           (DynoItem        *item);
void             dyno_item_unref         (DynoItem        *item);
const DynoValue *dyno_item_get_map       (const DynoItem  *item);
const DynoValue *dyno_item_lookup        (const DynoItem  *item,
                                          const char      *name);
guint            dyno_item_get_n_attributes (const DynoItem *item);
/* DynamoDB item size (dynamodb-facts.md §3.4). */
gsize            dyno_item_get_size      (const DynoItem  *item);
/* Memory used by the item, for the memory budget. */
gsize            dyno_item_get_memory_size (const DynoItem *item);
gboolean         dyno_item_equal         (const DynoItem  *a,
                                          const DynoItem  *b);
/* The same item with @first's attributes first, in that order, then the rest in the order a
 * person reads names: case-insensitive, numbers by value (a2 before a10).  DynamoDB returns an
 * item's attributes in no particular order; this is the order to show them in. */
DynoItem        *dyno_item_new_ordered   (const DynoItem     *item,
                                          const char * const *first);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DynoItem, dyno_item_unref)

G_END_DECLS
