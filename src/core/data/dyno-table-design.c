/* dyno-table-design.c: a CreateTable (or add-a-GSI UpdateTable) request being designed, with
 * DynamoDB's rules checked before sending
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "dyno-table-design.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "dyno-error.h"
#include "dyno-json.h"

struct _DynoTableDesign
{
  gatomicrefcount  ref_count;
  DynoTableInfo   *existing;            /* add-a-GSI mode, else NULL */
  char            *table_name;
  char            *pk_name;
  DynoValueType    pk_type;
  char            *sk_name;             /* NULL = none */
  DynoValueType    sk_type;
  DynoBillingMode  billing;
  gint64           read_capacity;
  gint64           write_capacity;
  GPtrArray       *indexes;             /* DynoIndexDesign* */
  /* Only from JSON: what AttributeDefinitions says beyond what the design can hold. */
  GPtrArray       *definition_problems; /* char*: messages */
};

G_DEFINE_BOXED_TYPE (DynoTableDesign, dyno_table_design,
                     dyno_table_design_ref, dyno_table_design_unref)

/* ---- helpers --------------------------------------------------------------------------- */

static gboolean
is_empty (const char *s)
{
  return s == NULL || *s == '\0';
}

static char *
dup_or_null (const char *s)
{
  return is_empty (s) ? NULL : g_strdup (s);
}

static const char *
type_description (DynoValueType type)
{
  switch (type)
    {
    case DYNO_VALUE_S:
      return _("String (S)");
    case DYNO_VALUE_N:
      return _("Number (N)");
    case DYNO_VALUE_B:
      return _("Binary (B)");
    case DYNO_VALUE_BOOL:
    case DYNO_VALUE_NULL:
    case DYNO_VALUE_M:
    case DYNO_VALUE_L:
    case DYNO_VALUE_SS:
    case DYNO_VALUE_NS:
    case DYNO_VALUE_BS:
    default:
      return dyno_value_type_to_string (type);
    }
}

static gboolean
is_key_type (DynoValueType type)
{
  return type == DYNO_VALUE_S || type == DYNO_VALUE_N || type == DYNO_VALUE_B;
}

static const char *
projection_to_string (DynoProjectionType projection)
{
  switch (projection)
    {
    case DYNO_PROJECTION_KEYS_ONLY:
      return "KEYS_ONLY";
    case DYNO_PROJECTION_INCLUDE:
      return "INCLUDE";
    case DYNO_PROJECTION_ALL:
    default:
      return "ALL";
    }
}

static void
index_design_free (DynoIndexDesign *index)
{
  g_free (index->name);
  g_free (index->partition_key_name);
  g_free (index->sort_key_name);
  g_ptr_array_unref (index->non_key_attributes);
  g_free (index);
}

static DynoIndexDesign *
index_design_new (gboolean global)
{
  DynoIndexDesign *index = g_new0 (DynoIndexDesign, 1);

  index->global = global;
  index->partition_key_type = DYNO_VALUE_S;
  index->sort_key_type = DYNO_VALUE_S;
  index->projection = DYNO_PROJECTION_ALL;
  index->non_key_attributes = g_ptr_array_new_with_free_func (g_free);
  index->read_capacity = -1;
  index->write_capacity = -1;
  return index;
}

void
dyno_design_problem_free (DynoDesignProblem *problem)
{
  if (problem == NULL)
    return;
  g_free (problem->field);
  g_free (problem->message);
  g_free (problem);
}

static void
add_problem (GPtrArray  *problems,
             const char *field,
             const char *format,
             ...) G_GNUC_PRINTF (3, 4);

static void
add_problem (GPtrArray  *problems,
             const char *field,
             const char *format,
             ...)
{
  DynoDesignProblem *problem = g_new0 (DynoDesignProblem, 1);
  va_list args;

  va_start (args, format);
  problem->field = g_strdup (field);
  problem->message = g_strdup_vprintf (format, args);
  va_end (args);
  g_ptr_array_add (problems, problem);
}

static char *
index_field (guint       i,
             const char *what)
{
  return g_strdup_printf ("index:%u:%s", i, what);
}

/* ---- construction ---------------------------------------------------------------------- */

static DynoTableDesign *
design_alloc (void)
{
  DynoTableDesign *design = g_new0 (DynoTableDesign, 1);

  g_atomic_ref_count_init (&design->ref_count);
  design->pk_type = DYNO_VALUE_S;
  design->sk_type = DYNO_VALUE_S;
  design->billing = DYNO_BILLING_PAY_PER_REQUEST;
  design->read_capacity = -1;
  design->write_capacity = -1;
  design->indexes = g_ptr_array_new_with_free_func ((GDestroyNotify) index_design_free);
  design->definition_problems = g_ptr_array_new_with_free_func (g_free);
  return design;
}

DynoTableDesign *
dyno_table_design_new (void)
{
  DynoTableDesign *design = design_alloc ();

  design->pk_name = g_strdup ("pk");
  return design;
}

DynoTableDesign *
dyno_table_design_new_for_index (DynoTableInfo *table)
{
  DynoTableDesign *design;
  const DynoKeyAttr *pk, *sk;

  g_return_val_if_fail (table != NULL, NULL);

  design = design_alloc ();
  design->existing = dyno_table_info_ref (table);
  design->table_name = g_strdup (dyno_table_info_get_name (table));
  pk = dyno_table_info_get_partition_key (table);
  sk = dyno_table_info_get_sort_key (table);
  design->pk_name = g_strdup (pk->name);
  design->pk_type = pk->type;
  design->sk_name = sk != NULL ? dup_or_null (sk->name) : NULL;
  design->sk_type = sk != NULL ? sk->type : DYNO_VALUE_S;
  design->billing = dyno_table_info_get_billing_mode (table);
  design->read_capacity = dyno_table_info_get_read_capacity (table);
  design->write_capacity = dyno_table_info_get_write_capacity (table);
  dyno_table_design_add_index (design, TRUE);
  return design;
}

DynoTableDesign *
dyno_table_design_new_from_table_info (const DynoTableInfo *table)
{
  DynoTableDesign *design;
  const DynoKeyAttr *pk, *sk;

  g_return_val_if_fail (table != NULL, NULL);

  design = design_alloc ();
  design->table_name = g_strdup (dyno_table_info_get_name (table));
  pk = dyno_table_info_get_partition_key (table);
  sk = dyno_table_info_get_sort_key (table);
  design->pk_name = g_strdup (pk->name);
  design->pk_type = pk->type;
  design->sk_name = sk != NULL ? dup_or_null (sk->name) : NULL;
  design->sk_type = sk != NULL ? sk->type : DYNO_VALUE_S;
  design->billing = dyno_table_info_get_billing_mode (table) == DYNO_BILLING_PROVISIONED
                    ? DYNO_BILLING_PROVISIONED : DYNO_BILLING_PAY_PER_REQUEST;
  if (design->billing == DYNO_BILLING_PROVISIONED)
    {
      design->read_capacity = dyno_table_info_get_read_capacity (table);
      design->write_capacity = dyno_table_info_get_write_capacity (table);
    }
  for (guint i = 0; i < dyno_table_info_get_n_indexes (table); i++)
    {
      const DynoIndexInfo *info = dyno_table_info_get_index (table, i);
      DynoIndexDesign *index;
      guint position = dyno_table_design_add_index (design, info->global);

      index = g_ptr_array_index (design->indexes, position);
      dyno_table_design_index_set_name (index, info->name);
      if (info->global)
        dyno_table_design_index_set_partition_key (index, info->partition_key.name,
                                                   info->partition_key.type);
      dyno_table_design_index_set_sort_key (index, info->sort_key.name, info->sort_key.type);
      dyno_table_design_index_set_projection (index, info->projection);
      dyno_table_design_index_set_non_key_attributes (index, (const char * const *)
                                                             info->non_key_attributes);
      if (info->global && design->billing == DYNO_BILLING_PROVISIONED)
        dyno_table_design_index_set_capacity (index, info->read_capacity,
                                              info->write_capacity);
    }
  return design;
}

DynoTableDesign *
dyno_table_design_ref (DynoTableDesign *design)
{
  g_return_val_if_fail (design != NULL, NULL);

  g_atomic_ref_count_inc (&design->ref_count);
  return design;
}

void
dyno_table_design_unref (DynoTableDesign *design)
{
  g_return_if_fail (design != NULL);

  if (!g_atomic_ref_count_dec (&design->ref_count))
    return;

  g_clear_pointer (&design->existing, dyno_table_info_unref);
  g_free (design->table_name);
  g_free (design->pk_name);
  g_free (design->sk_name);
  g_ptr_array_unref (design->indexes);
  g_ptr_array_unref (design->definition_problems);
  g_free (design);
}

/* ---- reading CreateTable JSON ---------------------------------------------------------- */

static gboolean
json_error (GError     **error,
            const char  *format,
            ...) G_GNUC_PRINTF (2, 3);

static gboolean
json_error (GError     **error,
            const char  *format,
            ...)
{
  va_list args;
  g_autofree char *message = NULL;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error_literal (error, DYNO_ERROR, DYNO_ERROR_INVALID_VALUE, message);
  return FALSE;
}

/* The string member @name of @obj; NULL when absent.  FALSE (error set) when not a string. */
static gboolean
read_string (JsonObject  *obj,
             const char  *name,
             const char  *where,
             const char **out,
             GError     **error)
{
  JsonNode *node = json_object_get_member (obj, name);

  *out = NULL;
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;
  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    return json_error (error, _("%s: %s must be a string."), where, name);
  *out = json_node_get_string (node);
  return TRUE;
}

static gboolean
read_array (JsonObject  *obj,
            const char  *name,
            const char  *where,
            JsonArray  **out,
            GError     **error)
{
  JsonNode *node = json_object_get_member (obj, name);

  *out = NULL;
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;
  if (!JSON_NODE_HOLDS_ARRAY (node))
    return json_error (error, _("%s: %s must be a list."), where, name);
  *out = json_node_get_array (node);
  return TRUE;
}

static gboolean
read_object (JsonObject  *obj,
             const char  *name,
             const char  *where,
             JsonObject **out,
             GError     **error)
{
  JsonNode *node = json_object_get_member (obj, name);

  *out = NULL;
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;
  if (!JSON_NODE_HOLDS_OBJECT (node))
    return json_error (error, _("%s: %s must be an object."), where, name);
  *out = json_node_get_object (node);
  return TRUE;
}

/* A capacity: an integer (JSON number without fraction).  -1 when absent. */
static gboolean
read_capacity (JsonObject  *obj,
               const char  *name,
               const char  *where,
               gint64      *out,
               GError     **error)
{
  JsonNode *node = json_object_get_member (obj, name);

  *out = -1;
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;
  if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_INT64)
    {
      *out = json_node_get_int (node);
      /* -1 means "not given": a negative value stays invalid as 0 does */
      if (*out < 0)
        *out = 0;
      return TRUE;
    }
  return json_error (error, _("%s: %s must be a whole number."), where, name);
}

static gboolean
read_throughput (JsonObject  *obj,
                 const char  *where,
                 gint64      *rcu,
                 gint64      *wcu,
                 gboolean    *present,
                 GError     **error)
{
  JsonObject *throughput;
  g_autofree char *inner = g_strdup_printf ("%s ProvisionedThroughput", where);

  *rcu = *wcu = -1;
  if (!read_object (obj, "ProvisionedThroughput", where, &throughput, error))
    return FALSE;
  if (present != NULL)
    *present = throughput != NULL;
  if (throughput == NULL)
    return TRUE;
  return read_capacity (throughput, "ReadCapacityUnits", inner, rcu, error) &&
         read_capacity (throughput, "WriteCapacityUnits", inner, wcu, error);
}

/* KeySchema: one HASH, then optionally one RANGE. */
static gboolean
read_key_schema (JsonObject  *obj,
                 const char  *where,
                 const char **hash,
                 const char **range,
                 GError     **error)
{
  JsonArray *schema;
  guint n;

  *hash = *range = NULL;
  if (!read_array (obj, "KeySchema", where, &schema, error))
    return FALSE;
  if (schema == NULL)
    return json_error (error, _("%s: KeySchema is missing."), where);
  n = json_array_get_length (schema);
  if (n < 1 || n > 2)
    return json_error (error, _("%s: KeySchema must have one or two elements, not %u."), where, n);

  for (guint i = 0; i < n; i++)
    {
      JsonNode *node = json_array_get_element (schema, i);
      const char *name, *key_type;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        return json_error (error, _("%s: KeySchema element %u must be an object."), where, i + 1);
      if (!read_string (json_node_get_object (node), "AttributeName", where, &name, error) ||
          !read_string (json_node_get_object (node), "KeyType", where, &key_type, error))
        return FALSE;
      if (name == NULL)
        return json_error (error, _("%s: KeySchema element %u has no AttributeName."), where,
                           i + 1);
      if (i == 0 && g_strcmp0 (key_type, "HASH") == 0)
        *hash = name;
      else if (i == 1 && g_strcmp0 (key_type, "RANGE") == 0)
        *range = name;
      else
        return json_error (error,
                           _("%s: KeySchema element %u must have KeyType %s, not “%s”."),
                           where, i + 1, i == 0 ? "HASH" : "RANGE",
                           key_type ? key_type : "");
    }
  return TRUE;
}

/* The type AttributeDefinitions gives @name; S when not defined (then recorded as a problem). */
static DynoValueType
defined_type (DynoTableDesign *design,
              GHashTable      *definitions,
              GHashTable      *used,
              const char      *name)
{
  gpointer type;

  if (name == NULL)
    return DYNO_VALUE_S;
  g_hash_table_add (used, (gpointer) name);
  if (g_hash_table_lookup_extended (definitions, name, NULL, &type))
    return GPOINTER_TO_INT (type);
  g_ptr_array_add (design->definition_problems,
                   g_strdup_printf (_("The key attribute “%s” is not defined in "
                                      "AttributeDefinitions."), name));
  /* so that each undefined name is reported once */
  g_hash_table_insert (definitions, (gpointer) name, GINT_TO_POINTER (DYNO_VALUE_S));
  return DYNO_VALUE_S;
}

static gboolean
read_projection (JsonObject       *obj,
                 const char       *where,
                 DynoIndexDesign  *index,
                 GError          **error)
{
  JsonObject *projection;
  const char *type = NULL;
  JsonArray *attrs = NULL;

  if (!read_object (obj, "Projection", where, &projection, error))
    return FALSE;
  if (projection == NULL)
    return json_error (error, _("%s: Projection is missing."), where);
  if (!read_string (projection, "ProjectionType", where, &type, error) ||
      !read_array (projection, "NonKeyAttributes", where, &attrs, error))
    return FALSE;

  if (type == NULL || g_str_equal (type, "ALL"))
    index->projection = DYNO_PROJECTION_ALL;
  else if (g_str_equal (type, "KEYS_ONLY"))
    index->projection = DYNO_PROJECTION_KEYS_ONLY;
  else if (g_str_equal (type, "INCLUDE"))
    index->projection = DYNO_PROJECTION_INCLUDE;
  else
    return json_error (error, _("%s: ProjectionType must be ALL, KEYS_ONLY or INCLUDE, not “%s”."),
                       where, type);

  for (guint i = 0; attrs != NULL && i < json_array_get_length (attrs); i++)
    {
      JsonNode *node = json_array_get_element (attrs, i);

      if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
        return json_error (error, _("%s: NonKeyAttributes must be a list of strings."), where);
      g_ptr_array_add (index->non_key_attributes, g_strdup (json_node_get_string (node)));
    }
  return TRUE;
}

static gboolean
read_indexes (DynoTableDesign *design,
              JsonObject      *root,
              gboolean         global,
              GHashTable      *definitions,
              GHashTable      *used,
              GError         **error)
{
  const char *member = global ? "GlobalSecondaryIndexes" : "LocalSecondaryIndexes";
  JsonArray *list;

  if (!read_array (root, member, "CreateTable", &list, error))
    return FALSE;

  for (guint i = 0; list != NULL && i < json_array_get_length (list); i++)
    {
      JsonNode *node = json_array_get_element (list, i);
      g_autofree char *where = g_strdup_printf ("%s[%u]", member, i);
      const char *name, *hash, *range;
      JsonObject *obj;
      DynoIndexDesign *index;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        return json_error (error, _("%s must be an object."), where);
      obj = json_node_get_object (node);
      if (!read_string (obj, "IndexName", where, &name, error) ||
          !read_key_schema (obj, where, &hash, &range, error))
        return FALSE;

      index = dyno_table_design_get_index (design, dyno_table_design_add_index (design, global));
      dyno_table_design_index_set_name (index, name);
      g_free (index->partition_key_name);
      index->partition_key_name = g_strdup (hash);
      index->partition_key_type = defined_type (design, definitions, used, hash);
      index->sort_key_name = g_strdup (range);
      index->sort_key_type = defined_type (design, definitions, used, range);
      if (!read_projection (obj, where, index, error))
        return FALSE;
      /* An LSI has no ProvisionedThroughput member in DynamoDB's API: like the service, the
       * reader ignores one (the LSI capacity rule is for designs made in the UI). */
      if (global &&
          !read_throughput (obj, where, &index->read_capacity, &index->write_capacity, NULL,
                            error))
        return FALSE;
    }
  return TRUE;
}

DynoTableDesign *
dyno_table_design_new_from_node (JsonNode  *node,
                                 GError   **error)
{
  g_autoptr(DynoTableDesign) design = NULL;
  g_autoptr(GHashTable) definitions = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GHashTable) used = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GList) defined = NULL;
  JsonObject *root;
  JsonArray *defs;
  const char *name, *billing, *hash, *range;
  gboolean has_throughput = FALSE;

  g_return_val_if_fail (node != NULL, NULL);

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      json_error (error, _("A CreateTable request must be a JSON object."));
      return NULL;
    }
  root = json_node_get_object (node);
  design = design_alloc ();

  if (!read_string (root, "TableName", "CreateTable", &name, error) ||
      !read_string (root, "BillingMode", "CreateTable", &billing, error) ||
      !read_array (root, "AttributeDefinitions", "CreateTable", &defs, error))
    return NULL;
  design->table_name = g_strdup (name);

  /* DynamoDB's default billing mode is PROVISIONED */
  if (billing == NULL || g_str_equal (billing, "PROVISIONED"))
    design->billing = DYNO_BILLING_PROVISIONED;
  else if (g_str_equal (billing, "PAY_PER_REQUEST"))
    design->billing = DYNO_BILLING_PAY_PER_REQUEST;
  else
    {
      json_error (error, _("CreateTable: BillingMode must be PROVISIONED or PAY_PER_REQUEST, "
                    "not “%s”."), billing);
      return NULL;
    }
  if (!read_throughput (root, "CreateTable", &design->read_capacity, &design->write_capacity,
                        &has_throughput, error))
    return NULL;

  for (guint i = 0; defs != NULL && i < json_array_get_length (defs); i++)
    {
      JsonNode *def = json_array_get_element (defs, i);
      const char *attr, *type_text;
      DynoValueType type;
      gpointer previous;

      if (!JSON_NODE_HOLDS_OBJECT (def))
        {
          json_error (error, _("AttributeDefinitions[%u] must be an object."), i);
          return NULL;
        }
      if (!read_string (json_node_get_object (def), "AttributeName", "AttributeDefinitions",
                        &attr, error) ||
          !read_string (json_node_get_object (def), "AttributeType", "AttributeDefinitions",
                        &type_text, error))
        return NULL;
      if (attr == NULL || type_text == NULL)
        {
          json_error (error, _("AttributeDefinitions[%u] needs AttributeName and AttributeType."),
                      i);
          return NULL;
        }
      if (!dyno_value_type_from_string (type_text, &type))
        {
          json_error (error, _("AttributeDefinitions[%u]: “%s” is not a DynamoDB type."), i,
                      type_text);
          return NULL;
        }
      if (g_hash_table_lookup_extended (definitions, attr, NULL, &previous))
        {
          g_ptr_array_add (design->definition_problems,
                           g_strdup_printf (_("AttributeDefinitions defines “%s” twice."), attr));
          continue;
        }
      g_hash_table_insert (definitions, (gpointer) attr, GINT_TO_POINTER (type));
    }
  defined = g_hash_table_get_keys (definitions);

  if (!read_key_schema (root, "CreateTable", &hash, &range, error))
    return NULL;
  design->pk_name = g_strdup (hash);
  design->pk_type = defined_type (design, definitions, used, hash);
  design->sk_name = g_strdup (range);
  design->sk_type = defined_type (design, definitions, used, range);

  if (!read_indexes (design, root, TRUE, definitions, used, error) ||
      !read_indexes (design, root, FALSE, definitions, used, error))
    return NULL;

  /* DynamoDB wants exactly the key attributes defined: no more */
  for (GList *l = defined; l != NULL; l = l->next)
    if (!g_hash_table_contains (used, l->data))
      g_ptr_array_add (design->definition_problems,
                       g_strdup_printf (_("AttributeDefinitions defines “%s”, which no key "
                                          "schema uses."), (const char *) l->data));
  return g_steal_pointer (&design);
}

DynoTableDesign *
dyno_table_design_new_from_json (const char  *json,
                                 gssize       len,
                                 GError     **error)
{
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GError) local_error = NULL;

  g_return_val_if_fail (json != NULL, NULL);

  root = dyno_json_parse (json, len, &local_error);
  if (root == NULL)
    {
      g_set_error (error, DYNO_ERROR, DYNO_ERROR_JSON, "The table definition is not valid JSON: %s",
                   local_error->message);
      return NULL;
    }
  return dyno_table_design_new_from_node (root, error);
}

/* ---- accessors ------------------------------------------------------------------------- */

DynoTableInfo *
dyno_table_design_get_existing_table (const DynoTableDesign *design)
{
  g_return_val_if_fail (design != NULL, NULL);
  return design->existing;
}

const char *
dyno_table_design_get_table_name (const DynoTableDesign *design)
{
  g_return_val_if_fail (design != NULL, NULL);
  return design->table_name;
}

void
dyno_table_design_set_table_name (DynoTableDesign *design,
                                  const char      *name)
{
  g_return_if_fail (design != NULL);
  g_return_if_fail (design->existing == NULL);

  g_free (design->table_name);
  design->table_name = g_strdup (name);
}

const char *
dyno_table_design_get_partition_key_name (const DynoTableDesign *design)
{
  g_return_val_if_fail (design != NULL, NULL);
  return design->pk_name;
}

DynoValueType
dyno_table_design_get_partition_key_type (const DynoTableDesign *design)
{
  g_return_val_if_fail (design != NULL, DYNO_VALUE_S);
  return design->pk_type;
}

void
dyno_table_design_set_partition_key (DynoTableDesign *design,
                                     const char      *name,
                                     DynoValueType    type)
{
  g_return_if_fail (design != NULL);
  g_return_if_fail (design->existing == NULL);

  g_free (design->pk_name);
  design->pk_name = g_strdup (name);
  design->pk_type = type;
}

const char *
dyno_table_design_get_sort_key_name (const DynoTableDesign *design)
{
  g_return_val_if_fail (design != NULL, NULL);
  return design->sk_name;
}

DynoValueType
dyno_table_design_get_sort_key_type (const DynoTableDesign *design)
{
  g_return_val_if_fail (design != NULL, DYNO_VALUE_S);
  return design->sk_type;
}

void
dyno_table_design_set_sort_key (DynoTableDesign *design,
                                const char      *name,
                                DynoValueType    type)
{
  g_return_if_fail (design != NULL);
  g_return_if_fail (design->existing == NULL);

  g_free (design->sk_name);
  design->sk_name = dup_or_null (name);
  design->sk_type = type;
}

DynoBillingMode
dyno_table_design_get_billing_mode (const DynoTableDesign *design)
{
  g_return_val_if_fail (design != NULL, DYNO_BILLING_UNKNOWN);
  return design->billing;
}

void
dyno_table_design_set_billing_mode (DynoTableDesign *design,
                                    DynoBillingMode  mode)
{
  g_return_if_fail (design != NULL);
  g_return_if_fail (design->existing == NULL);
  design->billing = mode;
}

gint64
dyno_table_design_get_read_capacity (const DynoTableDesign *design)
{
  g_return_val_if_fail (design != NULL, -1);
  return design->read_capacity;
}

gint64
dyno_table_design_get_write_capacity (const DynoTableDesign *design)
{
  g_return_val_if_fail (design != NULL, -1);
  return design->write_capacity;
}

void
dyno_table_design_set_capacity (DynoTableDesign *design,
                                gint64           read_capacity,
                                gint64           write_capacity)
{
  g_return_if_fail (design != NULL);
  g_return_if_fail (design->existing == NULL);
  design->read_capacity = read_capacity;
  design->write_capacity = write_capacity;
}

guint
dyno_table_design_get_n_indexes (const DynoTableDesign *design)
{
  g_return_val_if_fail (design != NULL, 0);
  return design->indexes->len;
}

DynoIndexDesign *
dyno_table_design_get_index (DynoTableDesign *design,
                             guint            i)
{
  g_return_val_if_fail (design != NULL, NULL);
  g_return_val_if_fail (i < design->indexes->len, NULL);
  return g_ptr_array_index (design->indexes, i);
}

guint
dyno_table_design_add_index (DynoTableDesign *design,
                             gboolean         global)
{
  DynoIndexDesign *index;

  g_return_val_if_fail (design != NULL, 0);

  index = index_design_new (global);
  if (!global)
    index->partition_key_name = g_strdup (design->pk_name);
  g_ptr_array_add (design->indexes, index);
  return design->indexes->len - 1;
}

void
dyno_table_design_remove_index (DynoTableDesign *design,
                                guint            i)
{
  g_return_if_fail (design != NULL);
  g_return_if_fail (i < design->indexes->len);
  g_ptr_array_remove_index (design->indexes, i);
}

void
dyno_table_design_index_set_name (DynoIndexDesign *index,
                                  const char      *name)
{
  g_return_if_fail (index != NULL);
  g_free (index->name);
  index->name = g_strdup (name);
}

void
dyno_table_design_index_set_global (DynoIndexDesign *index,
                                    gboolean         global)
{
  g_return_if_fail (index != NULL);
  index->global = global;
}

void
dyno_table_design_index_set_partition_key (DynoIndexDesign *index,
                                           const char      *name,
                                           DynoValueType    type)
{
  g_return_if_fail (index != NULL);
  g_free (index->partition_key_name);
  index->partition_key_name = g_strdup (name);
  index->partition_key_type = type;
}

void
dyno_table_design_index_set_sort_key (DynoIndexDesign *index,
                                      const char      *name,
                                      DynoValueType    type)
{
  g_return_if_fail (index != NULL);
  g_free (index->sort_key_name);
  index->sort_key_name = dup_or_null (name);
  index->sort_key_type = type;
}

void
dyno_table_design_index_set_projection (DynoIndexDesign    *index,
                                        DynoProjectionType  projection)
{
  g_return_if_fail (index != NULL);
  index->projection = projection;
}

void
dyno_table_design_index_set_non_key_attributes (DynoIndexDesign    *index,
                                                const char * const *attributes)
{
  g_return_if_fail (index != NULL);
  g_ptr_array_set_size (index->non_key_attributes, 0);
  for (guint i = 0; attributes != NULL && attributes[i] != NULL; i++)
    g_ptr_array_add (index->non_key_attributes, g_strdup (attributes[i]));
}

void
dyno_table_design_index_set_non_key_attributes_text (DynoIndexDesign *index,
                                                     const char      *text)
{
  g_auto(GStrv) parts = NULL;
  guint n;

  g_return_if_fail (index != NULL);
  g_ptr_array_set_size (index->non_key_attributes, 0);
  if (text == NULL)
    return;

  parts = g_strsplit (text, ",", -1);
  n = g_strv_length (parts);
  for (guint i = 0; i < n; i++)
    g_strstrip (parts[i]);
  /* "a, b," is being typed: the empty name after the last comma is not (yet) an error */
  while (n > 0 && *parts[n - 1] == '\0')
    n--;
  for (guint i = 0; i < n; i++)
    g_ptr_array_add (index->non_key_attributes, g_strdup (parts[i]));
}

void
dyno_table_design_index_set_capacity (DynoIndexDesign *index,
                                      gint64           read_capacity,
                                      gint64           write_capacity)
{
  g_return_if_fail (index != NULL);
  index->read_capacity = read_capacity;
  index->write_capacity = write_capacity;
}

/* ---- validation ------------------------------------------------------------------------ */

/* Table and index names: 3..255 characters of [a-zA-Z0-9_.-]. */
static void
check_name (GPtrArray  *problems,
            const char *field,
            gboolean    is_table,
            const char *name)
{
  glong length;

  if (is_empty (name))
    {
      add_problem (problems, field, "%s", is_table ? _("Enter a table name.")
                                                   : _("Enter an index name."));
      return;
    }

  length = g_utf8_validate (name, -1, NULL) ? g_utf8_strlen (name, -1) : (glong) strlen (name);
  if (length < 3 || length > DYNO_TABLE_DESIGN_MAX_NAME_LENGTH)
    add_problem (problems, field,
                 is_table ? _("A table name must be 3 to 255 characters long; “%s” has %ld.")
                          : _("An index name must be 3 to 255 characters long; “%s” has %ld."),
                 length > 40 ? "…" : name, length);

  for (const char *p = name; *p != '\0'; p = g_utf8_next_char (p))
    if (!(g_ascii_isalnum (*p) || *p == '_' || *p == '.' || *p == '-'))
      {
        g_autofree char *bad = g_utf8_validate (p, -1, NULL)
                               ? g_strndup (p, g_utf8_next_char (p) - p)
                               : g_strdup_printf ("\\x%02x", (guchar) *p);

        add_problem (problems, field,
                     is_table ? _("A table name may contain only letters A–Z and a–z, digits, "
                                  "“_”, “.” and “-”, not “%s”.")
                              : _("An index name may contain only letters A–Z and a–z, digits, "
                                  "“_”, “.” and “-”, not “%s”."), bad);
        return;
      }
}

static void
check_key_name (GPtrArray  *problems,
                const char *field,
                gboolean    partition_key,
                const char *name,
                gboolean    required)
{
  if (is_empty (name))
    {
      if (required)
        add_problem (problems, field, "%s",
                     partition_key ? _("Enter the partition key's attribute name.")
                                   : _("Enter the sort key's attribute name."));
      return;
    }
  if (strlen (name) > DYNO_TABLE_DESIGN_MAX_NAME_LENGTH)
    add_problem (problems, field,
                 _("A key attribute name is at most 255 bytes long; this one has %zu."),
                 strlen (name));
}

static void
check_key_type (GPtrArray     *problems,
                const char    *field,
                DynoValueType  type)
{
  if (!is_key_type (type))
    add_problem (problems, field,
                 _("A key attribute must be a String (S), Number (N) or Binary (B), not %s."),
                 dyno_value_type_to_string (type));
}

/* Where each key attribute got its type first: name -> KeyUse*.  @where is "" for the
 * table, an index name, or the existing table's name (@existing). */
typedef struct {
  DynoValueType  type;
  char          *where;
  gboolean       existing;
} KeyUse;

static void
key_use_free (KeyUse *use)
{
  g_free (use->where);
  g_free (use);
}

/* @where: NULL for the new table's keys, else the index's name (or, with @existing, the
 * existing table's name). */
static void
check_key_type_consistent (GPtrArray     *problems,
                           GHashTable    *uses,
                           const char    *field,
                           const char    *name,
                           DynoValueType  type,
                           const char    *where,
                           gboolean       existing)
{
  KeyUse *use;

  if (is_empty (name) || !is_key_type (type))
    return;

  use = g_hash_table_lookup (uses, name);
  if (use == NULL)
    {
      use = g_new0 (KeyUse, 1);
      use->type = type;
      use->where = g_strdup (where);
      use->existing = existing;
      g_hash_table_insert (uses, g_strdup (name), use);
      return;
    }
  if (use->type == type)
    return;

  if (use->where == NULL)
    add_problem (problems, field,
                 _("“%s” is already a %s key of the table; an attribute has one type in every "
                   "key that uses it."), name, type_description (use->type));
  else if (use->existing)
    add_problem (problems, field,
                 _("“%s” is already a %s attribute in table “%s”; an attribute has one type in "
                   "every key that uses it."), name, type_description (use->type), use->where);
  else
    add_problem (problems, field,
                 _("“%s” is already a %s key of index “%s”; an attribute has one type in every "
                   "key that uses it."), name, type_description (use->type), use->where);
}

static gboolean
capacity_given (gint64 capacity)
{
  return capacity != -1;
}

/* @index_name: NULL for the table's own capacity. */
static void
check_capacity (GPtrArray       *problems,
                DynoBillingMode  billing,
                const char      *read_field,
                const char      *write_field,
                gint64           rcu,
                gint64           wcu,
                const char      *index_name)
{
  if (billing == DYNO_BILLING_PROVISIONED)
    {
      if (rcu < 1 && index_name == NULL)
        add_problem (problems, read_field, "%s",
                     _("With provisioned billing the table needs a read capacity of at least "
                       "1 unit."));
      else if (rcu < 1)
        add_problem (problems, read_field,
                     _("With provisioned billing the index “%s” needs a read capacity of at "
                       "least 1 unit."), index_name);
      if (wcu < 1 && index_name == NULL)
        add_problem (problems, write_field, "%s",
                     _("With provisioned billing the table needs a write capacity of at least "
                       "1 unit."));
      else if (wcu < 1)
        add_problem (problems, write_field,
                     _("With provisioned billing the index “%s” needs a write capacity of at "
                       "least 1 unit."), index_name);
    }
  else if (billing == DYNO_BILLING_PAY_PER_REQUEST)
    {
      if (capacity_given (rcu))
        add_problem (problems, read_field, "%s",
                     _("On-demand billing takes no read capacity; leave it out or choose "
                       "provisioned billing."));
      if (capacity_given (wcu))
        add_problem (problems, write_field, "%s",
                     _("On-demand billing takes no write capacity; leave it out or choose "
                       "provisioned billing."));
    }
  else
    {
      if (capacity_given (rcu) && rcu < 1)
        add_problem (problems, read_field, "%s", _("Read capacity must be at least 1 unit."));
      if (capacity_given (wcu) && wcu < 1)
        add_problem (problems, write_field, "%s", _("Write capacity must be at least 1 unit."));
    }
}

static gboolean
is_table_key (const DynoTableDesign *design,
              const char            *name)
{
  return g_strcmp0 (name, design->pk_name) == 0 ||
         (design->sk_name != NULL && g_strcmp0 (name, design->sk_name) == 0);
}

/* Projection rules of index @i; @total counts NonKeyAttributes over all indexes so far. */
static void
check_projection (GPtrArray             *problems,
                  const DynoTableDesign *design,
                  guint                  i,
                  const DynoIndexDesign *index,
                  guint                 *total)
{
  g_autofree char *field = index_field (i, "projection-attributes");
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  GPtrArray *attrs = index->non_key_attributes;
  const char *pk = index->global ? index->partition_key_name : design->pk_name;

  if (index->projection != DYNO_PROJECTION_INCLUDE)
    {
      if (attrs->len > 0)
        add_problem (problems, field,
                     _("Projected attributes are listed only with the INCLUDE projection; %s "
                       "takes none."), projection_to_string (index->projection));
      return;
    }

  if (attrs->len == 0)
    {
      add_problem (problems, field,
                   _("The INCLUDE projection needs at least one non-key attribute to project."));
      return;
    }
  if (attrs->len > DYNO_TABLE_DESIGN_MAX_NON_KEY_PER_INDEX)
    add_problem (problems, field,
                 _("An index projects at most %d non-key attributes; this one lists %u."),
                 DYNO_TABLE_DESIGN_MAX_NON_KEY_PER_INDEX, attrs->len);

  for (guint j = 0; j < attrs->len; j++)
    {
      const char *attr = g_ptr_array_index (attrs, j);

      if (*attr == '\0')
        add_problem (problems, field, _("Projected attribute %u is empty."), j + 1);
      else if (strlen (attr) > DYNO_TABLE_DESIGN_MAX_NAME_LENGTH)
        add_problem (problems, field,
                     _("A projected attribute name is at most 255 bytes long; attribute %u has "
                       "%zu."), j + 1, strlen (attr));
      else if (is_table_key (design, attr) || g_strcmp0 (attr, pk) == 0 ||
               g_strcmp0 (attr, index->sort_key_name) == 0)
        add_problem (problems, field,
                     _("“%s” is a key attribute; keys are always projected, so leave it out."),
                     attr);
      else if (!g_hash_table_add (seen, (gpointer) attr))
        add_problem (problems, field, _("“%s” is listed twice."), attr);
    }

  if (*total <= DYNO_TABLE_DESIGN_MAX_NON_KEY_TOTAL &&
      *total + attrs->len > DYNO_TABLE_DESIGN_MAX_NON_KEY_TOTAL)
    add_problem (problems, field,
                 _("All indexes of a table together project at most %d non-key attributes "
                   "(the same attribute in two indexes counts twice); this index brings the "
                   "total to %u."), DYNO_TABLE_DESIGN_MAX_NON_KEY_TOTAL, *total + attrs->len);
  *total += attrs->len;
}

static void
check_index (GPtrArray             *problems,
             const DynoTableDesign *design,
             guint                  i,
             GHashTable            *names,
             GHashTable            *uses,
             guint                 *total)
{
  const DynoIndexDesign *index = g_ptr_array_index (design->indexes, i);
  g_autofree char *f_name = index_field (i, "name");
  g_autofree char *f_type = index_field (i, "type");
  g_autofree char *f_pk = index_field (i, "partition-key-name");
  g_autofree char *f_pk_type = index_field (i, "partition-key-type");
  g_autofree char *f_sk = index_field (i, "sort-key-name");
  g_autofree char *f_sk_type = index_field (i, "sort-key-type");
  g_autofree char *f_rcu = index_field (i, "read-capacity");
  g_autofree char *f_wcu = index_field (i, "write-capacity");
  const char *label = index->name ? index->name : "";

  check_name (problems, f_name, FALSE, index->name);
  if (!is_empty (index->name))
    {
      if (!g_hash_table_add (names, index->name))
        add_problem (problems, f_name,
                     _("Another index is already named “%s”; global and local secondary indexes "
                       "share one set of names."), index->name);
      else if (design->existing != NULL &&
               dyno_table_info_find_index (design->existing, index->name) != NULL)
        add_problem (problems, f_name, _("The table already has an index named “%s”."),
                     index->name);
    }

  if (index->global)
    {
      check_key_name (problems, f_pk, TRUE, index->partition_key_name, TRUE);
      check_key_type (problems, f_pk_type, index->partition_key_type);
      check_key_type_consistent (problems, uses, f_pk_type, index->partition_key_name,
                                 index->partition_key_type, label, FALSE);
      check_key_name (problems, f_sk, FALSE, index->sort_key_name, FALSE);
    }
  else
    {
      if (design->existing != NULL)
        add_problem (problems, f_type,
                     _("Only global secondary indexes can be added to an existing table; local "
                       "ones are created with the table."));
      else if (design->sk_name == NULL)
        add_problem (problems, f_type,
                     _("A local secondary index needs a table with a sort key; give the table "
                       "one or make this a global index."));
      if (!is_empty (index->partition_key_name) &&
          g_strcmp0 (index->partition_key_name, design->pk_name) != 0)
        add_problem (problems, f_pk,
                     _("A local secondary index has the table's partition key (“%s”), not “%s”."),
                     design->pk_name ? design->pk_name : "", index->partition_key_name);
      if (is_empty (index->sort_key_name))
        add_problem (problems, f_sk, _("A local secondary index needs a sort key."));
      else
        {
          check_key_name (problems, f_sk, FALSE, index->sort_key_name, TRUE);
          if (design->sk_name != NULL && g_str_equal (index->sort_key_name, design->sk_name))
            add_problem (problems, f_sk,
                         _("A local secondary index needs a sort key other than the table's "
                           "(“%s”); with the same one it would repeat the table."),
                         design->sk_name);
        }
    }

  if (!is_empty (index->sort_key_name))
    {
      const char *pk = index->global ? index->partition_key_name : design->pk_name;

      check_key_type (problems, f_sk_type, index->sort_key_type);
      if (g_strcmp0 (pk, index->sort_key_name) == 0)
        add_problem (problems, f_sk,
                     _("The sort key must be a different attribute from the partition key."));
      else
        check_key_type_consistent (problems, uses, f_sk_type, index->sort_key_name,
                                   index->sort_key_type, label, FALSE);
    }

  check_projection (problems, design, i, index, total);

  if (index->global)
    check_capacity (problems, design->billing, f_rcu, f_wcu, index->read_capacity,
                    index->write_capacity, label);
  else if (capacity_given (index->read_capacity) || capacity_given (index->write_capacity))
    add_problem (problems,
                 capacity_given (index->read_capacity) ? f_rcu : f_wcu,
                 "A local secondary index shares the table's capacity; it takes none of its "
                 "own.");
}

GPtrArray *
dyno_table_design_validate (const DynoTableDesign *design)
{
  g_autoptr(GPtrArray) problems = NULL;
  g_autoptr(GHashTable) names = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GHashTable) uses = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                      (GDestroyNotify) key_use_free);
  guint n_gsis = 0, n_lsis = 0, total = 0;

  g_return_val_if_fail (design != NULL, NULL);

  problems = g_ptr_array_new_with_free_func ((GDestroyNotify) dyno_design_problem_free);

  if (design->existing == NULL)
    {
      check_name (problems, "table-name", TRUE, design->table_name);
      check_key_name (problems, "partition-key-name", TRUE, design->pk_name, TRUE);
      check_key_type (problems, "partition-key-type", design->pk_type);
      check_key_type_consistent (problems, uses, "partition-key-type", design->pk_name,
                                 design->pk_type, NULL, FALSE);
      if (design->sk_name != NULL)
        {
          check_key_name (problems, "sort-key-name", FALSE, design->sk_name, TRUE);
          check_key_type (problems, "sort-key-type", design->sk_type);
          if (g_strcmp0 (design->sk_name, design->pk_name) == 0)
            add_problem (problems, "sort-key-name",
                         _("The sort key must be a different attribute from the partition key."));
          else
            check_key_type_consistent (problems, uses, "sort-key-type", design->sk_name,
                                       design->sk_type, NULL, FALSE);
        }
      if (design->billing != DYNO_BILLING_PROVISIONED &&
          design->billing != DYNO_BILLING_PAY_PER_REQUEST)
        add_problem (problems, "billing-mode", _("Choose on-demand or provisioned billing."));
      else
        check_capacity (problems, design->billing, "read-capacity", "write-capacity",
                        design->read_capacity, design->write_capacity, NULL);
      for (guint i = 0; i < design->definition_problems->len; i++)
        add_problem (problems, "attribute-definitions", "%s",
                     (const char *) g_ptr_array_index (design->definition_problems, i));
    }
  else
    {
      /* The existing table fixes the types of its attributes and counts toward the limits. */
      DynoTableInfo *table = design->existing;

      for (guint i = 0; i < dyno_table_info_get_n_indexes (table); i++)
        {
          const DynoIndexInfo *old = dyno_table_info_get_index (table, i);

          if (old->global)
            n_gsis++;
          if (old->projection == DYNO_PROJECTION_INCLUDE && old->non_key_attributes != NULL)
            total += g_strv_length (old->non_key_attributes);
        }
      if (design->indexes->len > 0)
        {
          const DynoIndexDesign *index = g_ptr_array_index (design->indexes, 0);
          const char *names_[2] = { index->partition_key_name, index->sort_key_name };

          for (guint k = 0; k < 2; k++)
            {
              DynoValueType type;

              if (is_empty (names_[k]) ||
                  !dyno_table_info_lookup_attribute_type (table, names_[k], &type))
                continue;
              check_key_type_consistent (problems, uses, "-", names_[k], type,
                                         dyno_table_info_get_name (table), TRUE);
            }
        }
    }

  for (guint i = 0; i < design->indexes->len; i++)
    {
      const DynoIndexDesign *index = g_ptr_array_index (design->indexes, i);

      if (index->global)
        n_gsis++;
      else
        n_lsis++;
      check_index (problems, design, i, names, uses, &total);
    }

  if (n_gsis > DYNO_TABLE_DESIGN_MAX_GSIS)
    add_problem (problems, "indexes",
                 _("A table has at most %d global secondary indexes; this one would have %u."),
                 DYNO_TABLE_DESIGN_MAX_GSIS, n_gsis);
  if (n_lsis > DYNO_TABLE_DESIGN_MAX_LSIS)
    add_problem (problems, "indexes",
                 _("A table has at most %d local secondary indexes; this one would have %u."),
                 DYNO_TABLE_DESIGN_MAX_LSIS, n_lsis);

  return g_steal_pointer (&problems);
}

char *
dyno_design_problems_for_field (GPtrArray  *problems,
                                const char *field)
{
  GString *text = NULL;

  g_return_val_if_fail (problems != NULL, NULL);
  g_return_val_if_fail (field != NULL, NULL);

  for (guint i = 0; i < problems->len; i++)
    {
      const DynoDesignProblem *problem = g_ptr_array_index (problems, i);

      if (!g_str_equal (problem->field, field))
        continue;
      if (text == NULL)
        text = g_string_new (problem->message);
      else
        g_string_append_printf (text, "\n%s", problem->message);
    }
  return text ? g_string_free (text, FALSE) : NULL;
}

/* ---- JSON out -------------------------------------------------------------------------- */

static void
add_definition (JsonBuilder   *builder,
                GHashTable    *defined,
                const char    *name,
                DynoValueType  type)
{
  if (is_empty (name) || !g_hash_table_add (defined, (gpointer) name))
    return;
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "AttributeName");
  json_builder_add_string_value (builder, name);
  json_builder_set_member_name (builder, "AttributeType");
  json_builder_add_string_value (builder, dyno_value_type_to_string (type));
  json_builder_end_object (builder);
}

static void
add_key_schema (JsonBuilder *builder,
                const char  *hash,
                const char  *range)
{
  json_builder_set_member_name (builder, "KeySchema");
  json_builder_begin_array (builder);
  for (guint k = 0; k < 2; k++)
    {
      const char *name = k == 0 ? hash : range;

      if (k == 1 && is_empty (name))
        break;
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "AttributeName");
      json_builder_add_string_value (builder, name ? name : "");
      json_builder_set_member_name (builder, "KeyType");
      json_builder_add_string_value (builder, k == 0 ? "HASH" : "RANGE");
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
}

static void
add_throughput (JsonBuilder *builder,
                gint64       rcu,
                gint64       wcu)
{
  json_builder_set_member_name (builder, "ProvisionedThroughput");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "ReadCapacityUnits");
  json_builder_add_int_value (builder, MAX (rcu, 0));
  json_builder_set_member_name (builder, "WriteCapacityUnits");
  json_builder_add_int_value (builder, MAX (wcu, 0));
  json_builder_end_object (builder);
}

static void
add_index_body (JsonBuilder           *builder,
                const DynoTableDesign *design,
                const DynoIndexDesign *index,
                DynoBillingMode        billing)
{
  const char *pk = index->global || is_empty (index->partition_key_name)
                   ? (index->global ? index->partition_key_name : design->pk_name)
                   : index->partition_key_name;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "IndexName");
  json_builder_add_string_value (builder, index->name ? index->name : "");
  add_key_schema (builder, pk, index->sort_key_name);
  json_builder_set_member_name (builder, "Projection");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "ProjectionType");
  json_builder_add_string_value (builder, projection_to_string (index->projection));
  if (index->non_key_attributes->len > 0)
    {
      json_builder_set_member_name (builder, "NonKeyAttributes");
      json_builder_begin_array (builder);
      for (guint j = 0; j < index->non_key_attributes->len; j++)
        json_builder_add_string_value (builder, g_ptr_array_index (index->non_key_attributes, j));
      json_builder_end_array (builder);
    }
  json_builder_end_object (builder);
  if (index->global &&
      (billing == DYNO_BILLING_PROVISIONED || capacity_given (index->read_capacity) ||
       capacity_given (index->write_capacity)))
    add_throughput (builder, index->read_capacity, index->write_capacity);
  json_builder_end_object (builder);
}

static void
add_definitions (JsonBuilder           *builder,
                 const DynoTableDesign *design,
                 gboolean               table_keys)
{
  g_autoptr(GHashTable) defined = g_hash_table_new (g_str_hash, g_str_equal);

  json_builder_set_member_name (builder, "AttributeDefinitions");
  json_builder_begin_array (builder);
  if (table_keys)
    {
      add_definition (builder, defined, design->pk_name, design->pk_type);
      add_definition (builder, defined, design->sk_name, design->sk_type);
    }
  for (guint i = 0; i < design->indexes->len; i++)
    {
      const DynoIndexDesign *index = g_ptr_array_index (design->indexes, i);

      if (index->global)
        add_definition (builder, defined, index->partition_key_name, index->partition_key_type);
      add_definition (builder, defined, index->sort_key_name, index->sort_key_type);
    }
  json_builder_end_array (builder);
}

JsonNode *
dyno_table_design_to_create_table_json (const DynoTableDesign *design)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();

  g_return_val_if_fail (design != NULL, NULL);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "TableName");
  json_builder_add_string_value (builder, design->table_name ? design->table_name : "");
  add_definitions (builder, design, TRUE);
  add_key_schema (builder, design->pk_name, design->sk_name);
  json_builder_set_member_name (builder, "BillingMode");
  json_builder_add_string_value (builder, design->billing == DYNO_BILLING_PROVISIONED
                                          ? "PROVISIONED" : "PAY_PER_REQUEST");
  if (design->billing == DYNO_BILLING_PROVISIONED || capacity_given (design->read_capacity) ||
      capacity_given (design->write_capacity))
    add_throughput (builder, design->read_capacity, design->write_capacity);

  for (int global = 1; global >= 0; global--)
    {
      gboolean any = FALSE;

      for (guint i = 0; i < design->indexes->len; i++)
        {
          const DynoIndexDesign *index = g_ptr_array_index (design->indexes, i);

          if (index->global != global)
            continue;
          if (!any)
            {
              json_builder_set_member_name (builder, global ? "GlobalSecondaryIndexes"
                                                            : "LocalSecondaryIndexes");
              json_builder_begin_array (builder);
              any = TRUE;
            }
          add_index_body (builder, design, index, design->billing);
        }
      if (any)
        json_builder_end_array (builder);
    }
  json_builder_end_object (builder);

  return json_builder_get_root (builder);
}

JsonNode *
dyno_table_design_to_update_table_json (const DynoTableDesign *design)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();

  g_return_val_if_fail (design != NULL, NULL);
  g_return_val_if_fail (design->existing != NULL, NULL);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "TableName");
  json_builder_add_string_value (builder, design->table_name ? design->table_name : "");
  add_definitions (builder, design, FALSE);
  json_builder_set_member_name (builder, "GlobalSecondaryIndexUpdates");
  json_builder_begin_array (builder);
  for (guint i = 0; i < design->indexes->len; i++)
    {
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "Create");
      add_index_body (builder, design, g_ptr_array_index (design->indexes, i), design->billing);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  json_builder_end_object (builder);

  return json_builder_get_root (builder);
}

char *
dyno_table_design_to_json_text (const DynoTableDesign *design)
{
  g_autoptr(JsonNode) node = NULL;

  g_return_val_if_fail (design != NULL, NULL);

  node = design->existing != NULL ? dyno_table_design_to_update_table_json (design)
                                  : dyno_table_design_to_create_table_json (design);
  return dyno_json_node_to_string (node, TRUE);
}

/* ---- comparing with DescribeTable ------------------------------------------------------ */

static gboolean
differ (char       **difference,
        const char  *format,
        ...) G_GNUC_PRINTF (2, 3);

static gboolean
differ (char       **difference,
        const char  *format,
        ...)
{
  va_list args;

  if (difference != NULL)
    {
      va_start (args, format);
      *difference = g_strdup_vprintf (format, args);
      va_end (args);
    }
  return FALSE;
}

static gboolean
same_key (const char    *design_name,
          DynoValueType  design_type,
          const DynoKeyAttr *actual)
{
  if (is_empty (design_name))
    return actual == NULL || actual->name == NULL;
  return actual != NULL && g_strcmp0 (actual->name, design_name) == 0 &&
         actual->type == design_type;
}

static gboolean
same_attributes (GPtrArray          *wanted,
                 const char * const *actual)
{
  guint n_actual = actual ? g_strv_length ((GStrv) actual) : 0;

  if (wanted->len != n_actual)
    return FALSE;
  for (guint i = 0; i < wanted->len; i++)
    if (!g_strv_contains (actual, g_ptr_array_index (wanted, i)))
      return FALSE;
  return TRUE;
}

gboolean
dyno_table_design_matches (const DynoTableDesign *design,
                           const DynoTableInfo   *info,
                           char                 **difference)
{
  g_return_val_if_fail (design != NULL, FALSE);
  g_return_val_if_fail (info != NULL, FALSE);

  if (g_strcmp0 (dyno_table_info_get_name (info), design->table_name) != 0)
    return differ (difference, _("The table is named “%s”, not “%s”."),
                   dyno_table_info_get_name (info), design->table_name);
  if (!same_key (design->pk_name, design->pk_type, dyno_table_info_get_partition_key (info)))
    return differ (difference, _("The partition key is not %s (%s)."), design->pk_name,
                   dyno_value_type_to_string (design->pk_type));
  if (!same_key (design->sk_name, design->sk_type, dyno_table_info_get_sort_key (info)))
    return differ (difference, _("The sort key is not %s."),
                   design->sk_name ? design->sk_name : "absent");
  if (dyno_table_info_get_billing_mode (info) != DYNO_BILLING_UNKNOWN &&
      dyno_table_info_get_billing_mode (info) != design->billing)
    return differ (difference, _("The billing mode differs."));
  if (design->billing == DYNO_BILLING_PROVISIONED && design->existing == NULL &&
      (dyno_table_info_get_read_capacity (info) != design->read_capacity ||
       dyno_table_info_get_write_capacity (info) != design->write_capacity))
    return differ (difference, "The table's capacity is %" G_GINT64_FORMAT "/%" G_GINT64_FORMAT
                   ", not %" G_GINT64_FORMAT "/%" G_GINT64_FORMAT ".",
                   dyno_table_info_get_read_capacity (info),
                   dyno_table_info_get_write_capacity (info),
                   design->read_capacity, design->write_capacity);

  for (guint i = 0; i < design->indexes->len; i++)
    {
      const DynoIndexDesign *index = g_ptr_array_index (design->indexes, i);
      const DynoIndexInfo *actual = dyno_table_info_find_index (info, index->name);
      const char *pk = index->global ? index->partition_key_name : design->pk_name;
      DynoValueType pk_type = index->global ? index->partition_key_type : design->pk_type;

      if (actual == NULL)
        return differ (difference, _("The table has no index “%s”."), index->name);
      if (actual->global != index->global)
        return differ (difference, _("The index “%s” is not a %s index."), index->name,
                       index->global ? "global" : "local");
      if (!same_key (pk, pk_type, &actual->partition_key))
        return differ (difference, _("The index “%s” has partition key %s, not %s."), index->name,
                       actual->partition_key.name, pk);
      if (!same_key (index->sort_key_name, index->sort_key_type,
                     actual->sort_key.name ? &actual->sort_key : NULL))
        return differ (difference, _("The index “%s” has another sort key."), index->name);
      if (actual->projection != index->projection)
        return differ (difference, _("The index “%s” has another projection."), index->name);
      if (index->projection == DYNO_PROJECTION_INCLUDE &&
          !same_attributes (index->non_key_attributes,
                            (const char * const *) actual->non_key_attributes))
        return differ (difference, _("The index “%s” projects other attributes."), index->name);
      if (index->global && design->billing == DYNO_BILLING_PROVISIONED &&
          actual->read_capacity >= 0 &&
          (actual->read_capacity != index->read_capacity ||
           actual->write_capacity != index->write_capacity))
        return differ (difference, _("The index “%s” has another capacity."), index->name);
    }

  if (design->existing == NULL && dyno_table_info_get_n_indexes (info) != design->indexes->len)
    return differ (difference, _("The table has %u indexes, not %u."),
                   dyno_table_info_get_n_indexes (info), design->indexes->len);
  return TRUE;
}
