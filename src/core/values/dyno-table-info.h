/* dyno-table-info.h: a table's schema, from a DescribeTable response
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

#include "dyno-value.h"

G_BEGIN_DECLS

typedef enum {
  DYNO_PROJECTION_ALL,
  DYNO_PROJECTION_KEYS_ONLY,
  DYNO_PROJECTION_INCLUDE,
} DynoProjectionType;

typedef enum {
  DYNO_BILLING_UNKNOWN,
  DYNO_BILLING_PROVISIONED,
  DYNO_BILLING_PAY_PER_REQUEST,
} DynoBillingMode;

typedef struct {
  char          *name;        /* NULL when the key has no sort key */
  DynoValueType  type;        /* S, N or B */
} DynoKeyAttr;

typedef struct {
  char               *name;
  gboolean            global;           /* GSI (TRUE) or LSI (FALSE) */
  DynoKeyAttr         partition_key;
  DynoKeyAttr         sort_key;         /* name NULL if none */
  DynoProjectionType  projection;
  GStrv               non_key_attributes; /* INCLUDE only, else NULL */
  char               *status;           /* IndexStatus, may be NULL */
  gint64              read_capacity;    /* -1 when unknown */
  gint64              write_capacity;
} DynoIndexInfo;

typedef struct _DynoTableInfo DynoTableInfo;

#define DYNO_TYPE_TABLE_INFO (dyno_table_info_get_type ())
GType          dyno_table_info_get_type  (void) G_GNUC_CONST;

/* Accepts the whole response ({"Table":{…}}) as `aws dynamodb describe-table` prints it, or
 * the inner TableDescription. */
DynoTableInfo *dyno_table_info_new_from_json (const char    *json,
                                              gssize         len,
                                              GError       **error);
DynoTableInfo *dyno_table_info_new_from_node (JsonNode      *node,
                                              GError       **error);
/* A schema built by hand (table designer, tests).  sort_key_name may be NULL. */
DynoTableInfo *dyno_table_info_new           (const char    *table_name,
                                              const char    *partition_key_name,
                                              DynoValueType  partition_key_type,
                                              const char    *sort_key_name,
                                              DynoValueType  sort_key_type);
void           dyno_table_info_add_index     (DynoTableInfo       *info,
                                              const DynoIndexInfo *index);
DynoTableInfo *dyno_table_info_ref           (DynoTableInfo *info);
void           dyno_table_info_unref         (DynoTableInfo *info);

const char        *dyno_table_info_get_name          (const DynoTableInfo *info);
const DynoKeyAttr *dyno_table_info_get_partition_key (const DynoTableInfo *info);
const DynoKeyAttr *dyno_table_info_get_sort_key      (const DynoTableInfo *info);
guint              dyno_table_info_get_n_indexes     (const DynoTableInfo *info);
const DynoIndexInfo *dyno_table_info_get_index       (const DynoTableInfo *info,
                                                      guint                i);
const DynoIndexInfo *dyno_table_info_find_index      (const DynoTableInfo *info,
                                                      const char          *name);
/* Type of an attribute named in AttributeDefinitions; FALSE when not defined. */
gboolean           dyno_table_info_lookup_attribute_type (const DynoTableInfo *info,
                                                          const char          *name,
                                                          DynoValueType       *out_type);
/* TRUE for table key attributes and for the key attributes of any index. */
gboolean           dyno_table_info_is_key_attribute  (const DynoTableInfo *info,
                                                      const char          *name);
DynoBillingMode    dyno_table_info_get_billing_mode  (const DynoTableInfo *info);
gint64             dyno_table_info_get_read_capacity (const DynoTableInfo *info);
gint64             dyno_table_info_get_write_capacity (const DynoTableInfo *info);
gint64             dyno_table_info_get_item_count    (const DynoTableInfo *info);
gint64             dyno_table_info_get_size_bytes    (const DynoTableInfo *info);
const char        *dyno_table_info_get_status        (const DynoTableInfo *info);
/* "pk S · sk S" */
char              *dyno_table_info_describe_keys     (const DynoTableInfo *info,
                                                      const char          *index_name);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DynoTableInfo, dyno_table_info_unref)

G_END_DECLS
