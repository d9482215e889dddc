/* dyno-iac.c: a table as CloudFormation, CDK or Terraform
 *
 * One reading of the table (DynoIacTable), one CloudFormation tree built from it (JSON and
 * YAML both print that tree), and a printer each for the CDK and Terraform, which name the
 * same things in their own words.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "dyno-iac.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "dyno-error.h"
#include "dyno-json.h"

gboolean
dyno_iac_format_from_string (const char    *text,
                             DynoIacFormat *out)
{
  static const struct {
    const char    *name;
    DynoIacFormat  format;
  } formats[] = {
    { "cloudformation", DYNO_IAC_CLOUDFORMATION_YAML },
    { "cloudformation-yaml", DYNO_IAC_CLOUDFORMATION_YAML },
    { "cloudformation-json", DYNO_IAC_CLOUDFORMATION_JSON },
    { "cdk", DYNO_IAC_CDK },
    { "terraform", DYNO_IAC_TERRAFORM },
  };

  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    if (g_strcmp0 (text, formats[i].name) == 0)
      {
        *out = formats[i].format;
        return TRUE;
      }
  return FALSE;
}

/* ---- reading ----------------------------------------------------------------------------- */

void
dyno_iac_table_free (DynoIacTable *table)
{
  if (table == NULL)
    return;
  g_clear_pointer (&table->info, dyno_table_info_unref);
  g_free (table->arn);
  g_free (table->table_class);
  g_free (table->stream_view_type);
  g_free (table->kms_key);
  g_free (table->ttl_attribute);
  g_ptr_array_unref (table->tags);
  g_ptr_array_unref (table->unknown);
  g_free (table);
}

static JsonObject *
object_member (JsonObject *object,
               const char *name)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, name) : NULL;

  return node != NULL && JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
}

static const char *
string_member (JsonObject *object,
               const char *name)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, name) : NULL;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) ||
      json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;
  return json_node_get_string (node);
}

static gboolean
boolean_member (JsonObject *object,
                const char *name)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, name) : NULL;

  return node != NULL && JSON_NODE_HOLDS_VALUE (node) &&
         json_node_get_value_type (node) == G_TYPE_BOOLEAN && json_node_get_boolean (node);
}

DynoIacTable *
dyno_iac_table_new_from_description (JsonNode  *description,
                                     GError   **error)
{
  g_autoptr(DynoIacTable) table = g_new0 (DynoIacTable, 1);
  JsonObject *object, *part;
  const char *text;

  table->tags = g_ptr_array_new_with_free_func (g_free);
  table->unknown = g_ptr_array_new_with_free_func (g_free);
  table->info = dyno_table_info_new_from_node (description, error);
  if (table->info == NULL)
    return NULL;

  object = json_node_get_object (description);
  if (object_member (object, "Table") != NULL)
    object = object_member (object, "Table");

  table->arn = g_strdup (string_member (object, "TableArn"));
  part = object_member (object, "StreamSpecification");
  if (boolean_member (part, "StreamEnabled") && string_member (part, "StreamViewType") != NULL)
    table->stream_view_type = g_strdup (string_member (part, "StreamViewType"));
  table->deletion_protection = boolean_member (object, "DeletionProtectionEnabled");
  text = string_member (object_member (object, "TableClassSummary"), "TableClass");
  if (text != NULL && g_strcmp0 (text, "STANDARD") != 0)
    table->table_class = g_strdup (text);
  part = object_member (object, "SSEDescription");
  if (g_strcmp0 (string_member (part, "SSEType"), "KMS") == 0 &&
      g_strcmp0 (string_member (part, "Status"), "ENABLED") == 0)
    table->kms_key = g_strdup (string_member (part, "KMSMasterKeyArn"));

  return g_steal_pointer (&table);
}

void
dyno_iac_table_read_ttl (DynoIacTable *table,
                         JsonNode     *response)
{
  JsonObject *ttl;

  if (response == NULL || !JSON_NODE_HOLDS_OBJECT (response))
    return;
  ttl = object_member (json_node_get_object (response), "TimeToLiveDescription");
  g_clear_pointer (&table->ttl_attribute, g_free);
  if (g_strcmp0 (string_member (ttl, "TimeToLiveStatus"), "ENABLED") == 0 ||
      g_strcmp0 (string_member (ttl, "TimeToLiveStatus"), "ENABLING") == 0)
    table->ttl_attribute = g_strdup (string_member (ttl, "AttributeName"));
}

void
dyno_iac_table_read_backups (DynoIacTable *table,
                             JsonNode     *response)
{
  JsonObject *pitr;

  if (response == NULL || !JSON_NODE_HOLDS_OBJECT (response))
    return;
  pitr = object_member (object_member (json_node_get_object (response),
                                       "ContinuousBackupsDescription"),
                        "PointInTimeRecoveryDescription");
  table->point_in_time_recovery =
    g_strcmp0 (string_member (pitr, "PointInTimeRecoveryStatus"), "ENABLED") == 0;
}

void
dyno_iac_table_read_tags (DynoIacTable *table,
                          JsonNode     *response)
{
  JsonNode *tags;

  if (response == NULL || !JSON_NODE_HOLDS_OBJECT (response))
    return;
  tags = json_object_get_member (json_node_get_object (response), "Tags");
  if (tags == NULL || !JSON_NODE_HOLDS_ARRAY (tags))
    return;
  for (guint i = 0; i < json_array_get_length (json_node_get_array (tags)); i++)
    {
      JsonNode *tag = json_array_get_element (json_node_get_array (tags), i);
      const char *key, *value;

      if (!JSON_NODE_HOLDS_OBJECT (tag))
        continue;
      key = string_member (json_node_get_object (tag), "Key");
      value = string_member (json_node_get_object (tag), "Value");
      if (key == NULL)
        continue;
      g_ptr_array_add (table->tags, g_strdup (key));
      g_ptr_array_add (table->tags, g_strdup (value != NULL ? value : ""));
    }
}

void
dyno_iac_table_note_unknown (DynoIacTable *table,
                             const char   *what,
                             const char   *why)
{
  g_ptr_array_add (table->unknown, g_strdup_printf ("%s: %s", what, why));
}

/* ---- what every format says -------------------------------------------------------------- */

static gboolean
is_on_demand (const DynoIacTable *table)
{
  DynoBillingMode mode = dyno_table_info_get_billing_mode (table->info);

  return mode == DYNO_BILLING_PAY_PER_REQUEST ||
         (mode == DYNO_BILLING_UNKNOWN && dyno_table_info_get_read_capacity (table->info) <= 0);
}

typedef struct {
  const char    *name;
  DynoValueType  type;
} Attribute;

/* The attributes the keys of the table and its indexes use, each once, in order met. */
static GArray *
key_attributes (const DynoIacTable *table)
{
  GArray *attributes = g_array_new (FALSE, FALSE, sizeof (Attribute));
  const DynoKeyAttr *keys[2 + 2 * 64];
  guint n = 0, n_indexes = dyno_table_info_get_n_indexes (table->info);

  keys[n++] = dyno_table_info_get_partition_key (table->info);
  keys[n++] = dyno_table_info_get_sort_key (table->info);
  for (guint i = 0; i < n_indexes && n + 2 <= G_N_ELEMENTS (keys); i++)
    {
      const DynoIndexInfo *index = dyno_table_info_get_index (table->info, i);

      keys[n++] = &index->partition_key;
      keys[n++] = &index->sort_key;
    }

  for (guint i = 0; i < n; i++)
    {
      gboolean seen = FALSE;

      if (keys[i]->name == NULL)
        continue;
      for (guint j = 0; j < attributes->len && !seen; j++)
        seen = g_str_equal (g_array_index (attributes, Attribute, j).name, keys[i]->name);
      if (!seen)
        {
          Attribute a = { keys[i]->name, keys[i]->type };

          g_array_append_val (attributes, a);
        }
    }
  return attributes;
}

static const char *
projection_name (DynoProjectionType projection)
{
  switch (projection)
    {
    case DYNO_PROJECTION_KEYS_ONLY: return "KEYS_ONLY";
    case DYNO_PROJECTION_INCLUDE: return "INCLUDE";
    case DYNO_PROJECTION_ALL:
    default: return "ALL";
    }
}

/* "Orders" -> "Orders", "order-events.v2" -> "OrderEventsV2" */
static char *
camel_case (const char *name,
            gboolean    upper_first)
{
  GString *out = g_string_new (NULL);
  gboolean up = upper_first;

  for (const char *p = name; *p != '\0'; p++)
    {
      if (!g_ascii_isalnum (*p))
        {
          up = TRUE;
          continue;
        }
      if (out->len == 0 && g_ascii_isdigit (*p))
        g_string_append (out, upper_first ? "T" : "t");
      g_string_append_c (out, up && out->len > 0 ? g_ascii_toupper (*p)
                                                 : (out->len == 0 ? (upper_first
                                                                     ? g_ascii_toupper (*p)
                                                                     : g_ascii_tolower (*p))
                                                                  : *p));
      up = FALSE;
    }
  if (out->len == 0)
    g_string_append (out, upper_first ? "Table" : "table");
  return g_string_free (out, FALSE);
}

/* A name unique among @used (which it is added to): "Orders", "Orders2", … */
static char *
unique_name (GHashTable *used,
             char       *name)   /* taken */
{
  char *candidate = name;

  for (guint n = 2; g_hash_table_contains (used, candidate); n++)
    {
      if (candidate != name)
        g_free (candidate);
      candidate = g_strdup_printf ("%s%u", name, n);
    }
  if (candidate != name)
    g_free (name);
  g_hash_table_add (used, g_strdup (candidate));
  return candidate;
}

/* ---- CloudFormation ---------------------------------------------------------------------- */

static JsonArray *
key_schema (const char *partition_key,
            const char *sort_key)
{
  JsonArray *schema = json_array_new ();
  const char *names[] = { partition_key, sort_key };
  const char *types[] = { "HASH", "RANGE" };

  for (guint i = 0; i < 2; i++)
    {
      JsonObject *element;

      if (names[i] == NULL)
        continue;
      element = json_object_new ();
      json_object_set_string_member (element, "AttributeName", names[i]);
      json_object_set_string_member (element, "KeyType", types[i]);
      json_array_add_object_element (schema, element);
    }
  return schema;
}

static JsonObject *
throughput (gint64 read,
            gint64 write)
{
  JsonObject *object = json_object_new ();

  json_object_set_int_member (object, "ReadCapacityUnits", MAX (read, 1));
  json_object_set_int_member (object, "WriteCapacityUnits", MAX (write, 1));
  return object;
}

static JsonObject *
projection (const DynoIndexInfo *index)
{
  JsonObject *object = json_object_new ();

  json_object_set_string_member (object, "ProjectionType", projection_name (index->projection));
  if (index->projection == DYNO_PROJECTION_INCLUDE && index->non_key_attributes != NULL)
    {
      JsonArray *names = json_array_new ();

      for (guint i = 0; index->non_key_attributes[i] != NULL; i++)
        json_array_add_string_element (names, index->non_key_attributes[i]);
      json_object_set_array_member (object, "NonKeyAttributes", names);
    }
  return object;
}

JsonNode *
dyno_iac_cloudformation_properties (const DynoIacTable *table)
{
  JsonObject *props = json_object_new ();
  JsonArray *definitions = json_array_new ();
  JsonArray *gsis = json_array_new ();
  JsonArray *lsis = json_array_new ();
  g_autoptr(GArray) attributes = key_attributes (table);
  gboolean on_demand = is_on_demand (table);
  JsonNode *node;

  json_object_set_string_member (props, "TableName", dyno_table_info_get_name (table->info));
  for (guint i = 0; i < attributes->len; i++)
    {
      const Attribute *a = &g_array_index (attributes, Attribute, i);
      JsonObject *definition = json_object_new ();

      json_object_set_string_member (definition, "AttributeName", a->name);
      json_object_set_string_member (definition, "AttributeType",
                                     dyno_value_type_to_string (a->type));
      json_array_add_object_element (definitions, definition);
    }
  json_object_set_array_member (props, "AttributeDefinitions", definitions);
  json_object_set_array_member (props, "KeySchema",
                                key_schema (dyno_table_info_get_partition_key (table->info)->name,
                                            dyno_table_info_get_sort_key (table->info)->name));
  json_object_set_string_member (props, "BillingMode", on_demand ? "PAY_PER_REQUEST"
                                                                 : "PROVISIONED");
  if (!on_demand)
    json_object_set_object_member (props, "ProvisionedThroughput",
                                   throughput (dyno_table_info_get_read_capacity (table->info),
                                               dyno_table_info_get_write_capacity (table->info)));

  for (guint i = 0; i < dyno_table_info_get_n_indexes (table->info); i++)
    {
      const DynoIndexInfo *index = dyno_table_info_get_index (table->info, i);
      JsonObject *object = json_object_new ();

      json_object_set_string_member (object, "IndexName", index->name);
      json_object_set_array_member (object, "KeySchema", key_schema (index->partition_key.name,
                                                                     index->sort_key.name));
      json_object_set_object_member (object, "Projection", projection (index));
      if (index->global && !on_demand)
        json_object_set_object_member (object, "ProvisionedThroughput",
                                       throughput (index->read_capacity, index->write_capacity));
      json_array_add_object_element (index->global ? gsis : lsis, object);
    }
  if (json_array_get_length (gsis) > 0)
    json_object_set_array_member (props, "GlobalSecondaryIndexes", gsis);
  else
    json_array_unref (gsis);
  if (json_array_get_length (lsis) > 0)
    json_object_set_array_member (props, "LocalSecondaryIndexes", lsis);
  else
    json_array_unref (lsis);

  if (table->table_class != NULL)
    json_object_set_string_member (props, "TableClass", table->table_class);
  if (table->stream_view_type != NULL)
    {
      JsonObject *stream = json_object_new ();

      json_object_set_string_member (stream, "StreamViewType", table->stream_view_type);
      json_object_set_object_member (props, "StreamSpecification", stream);
    }
  if (table->ttl_attribute != NULL)
    {
      JsonObject *ttl = json_object_new ();

      json_object_set_string_member (ttl, "AttributeName", table->ttl_attribute);
      json_object_set_boolean_member (ttl, "Enabled", TRUE);
      json_object_set_object_member (props, "TimeToLiveSpecification", ttl);
    }
  if (table->point_in_time_recovery)
    {
      JsonObject *pitr = json_object_new ();

      json_object_set_boolean_member (pitr, "PointInTimeRecoveryEnabled", TRUE);
      json_object_set_object_member (props, "PointInTimeRecoverySpecification", pitr);
    }
  if (table->kms_key != NULL)
    {
      JsonObject *sse = json_object_new ();

      json_object_set_boolean_member (sse, "SSEEnabled", TRUE);
      json_object_set_string_member (sse, "SSEType", "KMS");
      json_object_set_string_member (sse, "KMSMasterKeyId", table->kms_key);
      json_object_set_object_member (props, "SSESpecification", sse);
    }
  if (table->deletion_protection)
    json_object_set_boolean_member (props, "DeletionProtectionEnabled", TRUE);
  if (table->tags->len > 0)
    {
      JsonArray *tags = json_array_new ();

      for (guint i = 0; i + 1 < table->tags->len; i += 2)
        {
          JsonObject *tag = json_object_new ();

          json_object_set_string_member (tag, "Key", g_ptr_array_index (table->tags, i));
          json_object_set_string_member (tag, "Value", g_ptr_array_index (table->tags, i + 1));
          json_array_add_object_element (tags, tag);
        }
      json_object_set_array_member (props, "Tags", tags);
    }

  node = json_node_init_object (json_node_alloc (), props);
  json_object_unref (props);
  return node;
}

static JsonNode *
cloudformation_template (GPtrArray *tables)
{
  JsonObject *root = json_object_new ();
  JsonObject *resources = json_object_new ();
  g_autoptr(GHashTable) used = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  JsonNode *node;

  json_object_set_string_member (root, "AWSTemplateFormatVersion", "2010-09-09");
  json_object_set_string_member (root, "Description", "DynamoDB tables, described by DynoTable");
  for (guint i = 0; i < tables->len; i++)
    {
      const DynoIacTable *table = g_ptr_array_index (tables, i);
      g_autofree char *base = camel_case (dyno_table_info_get_name (table->info), TRUE);
      g_autofree char *id = unique_name (used, g_strconcat (base, "Table", NULL));
      JsonObject *resource = json_object_new ();

      json_object_set_string_member (resource, "Type", "AWS::DynamoDB::Table");
      /* a stack deleted by mistake must not take the data with it */
      json_object_set_string_member (resource, "DeletionPolicy", "Retain");
      json_object_set_string_member (resource, "UpdateReplacePolicy", "Retain");
      json_object_set_member (resource, "Properties", dyno_iac_cloudformation_properties (table));
      json_object_set_object_member (resources, id, resource);
    }
  json_object_set_object_member (root, "Resources", resources);
  node = json_node_init_object (json_node_alloc (), root);
  json_object_unref (root);
  return node;
}

/* YAML for the template's tree: block mappings and sequences, every string double-quoted
 * (JSON's escapes are YAML's), numbers and booleans bare. */
static void
write_yaml (GString  *out,
            JsonNode *node,
            guint     indent,
            gboolean  in_sequence);

static void
write_yaml_scalar (GString  *out,
                   JsonNode *node)
{
  if (json_node_get_value_type (node) == G_TYPE_STRING)
    {
      g_autoptr(JsonNode) copy = json_node_copy (node);

      dyno_json_write_node (out, copy, FALSE);
    }
  else if (json_node_get_value_type (node) == G_TYPE_BOOLEAN)
    g_string_append (out, json_node_get_boolean (node) ? "true" : "false");
  else if (json_node_get_value_type (node) == G_TYPE_INT64)
    g_string_append_printf (out, "%" G_GINT64_FORMAT, json_node_get_int (node));
  else
    dyno_json_write_node (out, node, FALSE);
}

static void
write_yaml (GString  *out,
            JsonNode *node,
            guint     indent,
            gboolean  in_sequence)
{
  if (JSON_NODE_HOLDS_OBJECT (node))
    {
      g_autoptr(GList) members = json_object_get_members (json_node_get_object (node));
      gboolean first = TRUE;

      if (members == NULL)
        {
          g_string_append (out, " {}\n");
          return;
        }
      if (!in_sequence)
        g_string_append_c (out, '\n');
      for (GList *l = members; l != NULL; l = l->next)
        {
          JsonNode *value = json_object_get_member (json_node_get_object (node), l->data);

          /* the first member of a sequence's mapping sits on the "- " line */
          if (!(in_sequence && first))
            g_string_append_printf (out, "%*s", indent, "");
          g_string_append_printf (out, "%s:", (const char *) l->data);
          if (JSON_NODE_HOLDS_VALUE (value) || JSON_NODE_HOLDS_NULL (value))
            {
              g_string_append_c (out, ' ');
              write_yaml_scalar (out, value);
              g_string_append_c (out, '\n');
            }
          else
            write_yaml (out, value, indent + 2, FALSE);
          first = FALSE;
        }
    }
  else if (JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *array = json_node_get_array (node);

      if (json_array_get_length (array) == 0)
        {
          g_string_append (out, " []\n");
          return;
        }
      g_string_append_c (out, '\n');
      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          JsonNode *element = json_array_get_element (array, i);

          g_string_append_printf (out, "%*s- ", indent, "");
          if (JSON_NODE_HOLDS_OBJECT (element))
            write_yaml (out, element, indent + 2, TRUE);
          else
            {
              write_yaml_scalar (out, element);
              g_string_append_c (out, '\n');
            }
        }
    }
  else
    {
      g_string_append_c (out, ' ');
      write_yaml_scalar (out, node);
      g_string_append_c (out, '\n');
    }
}

/* ---- comments: what could not be read ---------------------------------------------------- */

static void
write_unknown (GString    *out,
               GPtrArray  *tables,
               const char *comment)
{
  for (guint i = 0; i < tables->len; i++)
    {
      const DynoIacTable *table = g_ptr_array_index (tables, i);

      for (guint j = 0; j < table->unknown->len; j++)
        g_string_append_printf (out, "%s %s: not read, left out: %s\n", comment,
                                dyno_table_info_get_name (table->info),
                                (const char *) g_ptr_array_index (table->unknown, j));
    }
}

/* ---- Terraform --------------------------------------------------------------------------- */

static void
append_hcl_string (GString    *out,
                   const char *text)
{
  g_string_append_c (out, '"');
  for (const char *p = text; *p != '\0'; p++)
    {
      if (*p == '"' || *p == '\\')
        g_string_append_c (out, '\\');
      else if (*p == '\n')
        {
          g_string_append (out, "\\n");
          continue;
        }
      else if ((*p == '$' || *p == '%') && p[1] == '{')
        g_string_append_c (out, *p);   /* $${ and %%{ are literal */
      g_string_append_c (out, *p);
    }
  g_string_append_c (out, '"');
}

typedef struct {
  GPtrArray *keys;    /* char* */
  GPtrArray *values;  /* char*, already HCL */
} HclBody;

static void
hcl_set (HclBody    *body,
         const char *key,
         char       *value)   /* taken */
{
  g_ptr_array_add (body->keys, g_strdup (key));
  g_ptr_array_add (body->values, value);
}

static char *
hcl_string (const char *text)
{
  GString *out = g_string_new (NULL);

  append_hcl_string (out, text);
  return g_string_free (out, FALSE);
}

static void
hcl_set_string (HclBody    *body,
                const char *key,
                const char *value)
{
  hcl_set (body, key, hcl_string (value));
}

/* Attributes with their '=' aligned, as terraform fmt writes them. */
static void
hcl_write_attributes (GString *out,
                      HclBody *body,
                      guint    indent)
{
  guint width = 0;

  for (guint i = 0; i < body->keys->len; i++)
    width = MAX (width, strlen (g_ptr_array_index (body->keys, i)));
  for (guint i = 0; i < body->keys->len; i++)
    g_string_append_printf (out, "%*s%-*s = %s\n", indent, "", width,
                            (const char *) g_ptr_array_index (body->keys, i),
                            (const char *) g_ptr_array_index (body->values, i));
  g_ptr_array_set_size (body->keys, 0);
  g_ptr_array_set_size (body->values, 0);
}

static void
write_terraform_table (GString            *out,
                       const DynoIacTable *table,
                       GHashTable         *used)
{
  const char *name = dyno_table_info_get_name (table->info);
  g_autofree char *camel = camel_case (name, FALSE);
  g_autofree char *resource = NULL;
  g_autoptr(GArray) attributes = key_attributes (table);
  gboolean on_demand = is_on_demand (table);
  HclBody body = { g_ptr_array_new_with_free_func (g_free),
                   g_ptr_array_new_with_free_func (g_free) };
  GString *snake = g_string_new (NULL);

  for (const char *p = camel; *p != '\0'; p++)
    {
      if (g_ascii_isupper (*p) && snake->len > 0)
        g_string_append_c (snake, '_');
      g_string_append_c (snake, g_ascii_tolower (*p));
    }
  resource = unique_name (used, g_string_free (snake, FALSE));

  g_string_append_printf (out, "resource \"aws_dynamodb_table\" \"%s\" {\n", resource);
  hcl_set_string (&body, "name", name);
  hcl_set_string (&body, "billing_mode", on_demand ? "PAY_PER_REQUEST" : "PROVISIONED");
  hcl_set_string (&body, "hash_key", dyno_table_info_get_partition_key (table->info)->name);
  if (dyno_table_info_get_sort_key (table->info)->name != NULL)
    hcl_set_string (&body, "range_key", dyno_table_info_get_sort_key (table->info)->name);
  if (!on_demand)
    {
      hcl_set (&body, "read_capacity",
               g_strdup_printf ("%" G_GINT64_FORMAT,
                                MAX (dyno_table_info_get_read_capacity (table->info), 1)));
      hcl_set (&body, "write_capacity",
               g_strdup_printf ("%" G_GINT64_FORMAT,
                                MAX (dyno_table_info_get_write_capacity (table->info), 1)));
    }
  if (table->table_class != NULL)
    hcl_set_string (&body, "table_class", table->table_class);
  if (table->stream_view_type != NULL)
    {
      hcl_set (&body, "stream_enabled", g_strdup ("true"));
      hcl_set_string (&body, "stream_view_type", table->stream_view_type);
    }
  if (table->deletion_protection)
    hcl_set (&body, "deletion_protection_enabled", g_strdup ("true"));
  hcl_write_attributes (out, &body, 2);

  for (guint i = 0; i < attributes->len; i++)
    {
      const Attribute *a = &g_array_index (attributes, Attribute, i);

      g_string_append (out, "\n  attribute {\n");
      hcl_set_string (&body, "name", a->name);
      hcl_set_string (&body, "type", dyno_value_type_to_string (a->type));
      hcl_write_attributes (out, &body, 4);
      g_string_append (out, "  }\n");
    }

  for (guint i = 0; i < dyno_table_info_get_n_indexes (table->info); i++)
    {
      const DynoIndexInfo *index = dyno_table_info_get_index (table->info, i);

      g_string_append_printf (out, "\n  %s_secondary_index {\n", index->global ? "global"
                                                                             : "local");
      hcl_set_string (&body, "name", index->name);
      if (index->global)
        hcl_set_string (&body, "hash_key", index->partition_key.name);
      if (index->sort_key.name != NULL)
        hcl_set_string (&body, "range_key", index->sort_key.name);
      hcl_set_string (&body, "projection_type", projection_name (index->projection));
      if (index->projection == DYNO_PROJECTION_INCLUDE && index->non_key_attributes != NULL)
        {
          GString *list = g_string_new ("[");

          for (guint j = 0; index->non_key_attributes[j] != NULL; j++)
            {
              if (j > 0)
                g_string_append (list, ", ");
              append_hcl_string (list, index->non_key_attributes[j]);
            }
          g_string_append_c (list, ']');
          hcl_set (&body, "non_key_attributes", g_string_free (list, FALSE));
        }
      if (index->global && !on_demand)
        {
          hcl_set (&body, "read_capacity",
                   g_strdup_printf ("%" G_GINT64_FORMAT, MAX (index->read_capacity, 1)));
          hcl_set (&body, "write_capacity",
                   g_strdup_printf ("%" G_GINT64_FORMAT, MAX (index->write_capacity, 1)));
        }
      hcl_write_attributes (out, &body, 4);
      g_string_append (out, "  }\n");
    }

  if (table->ttl_attribute != NULL)
    {
      g_string_append (out, "\n  ttl {\n");
      hcl_set_string (&body, "attribute_name", table->ttl_attribute);
      hcl_set (&body, "enabled", g_strdup ("true"));
      hcl_write_attributes (out, &body, 4);
      g_string_append (out, "  }\n");
    }
  if (table->point_in_time_recovery)
    g_string_append (out, "\n  point_in_time_recovery {\n    enabled = true\n  }\n");
  if (table->kms_key != NULL)
    {
      g_string_append (out, "\n  server_side_encryption {\n");
      hcl_set (&body, "enabled", g_strdup ("true"));
      hcl_set_string (&body, "kms_key_arn", table->kms_key);
      hcl_write_attributes (out, &body, 4);
      g_string_append (out, "  }\n");
    }
  if (table->tags->len > 0)
    {
      g_string_append (out, "\n  tags = {\n");
      for (guint i = 0; i + 1 < table->tags->len; i += 2)
        {
          g_autofree char *key = hcl_string (g_ptr_array_index (table->tags, i));

          hcl_set_string (&body, key, g_ptr_array_index (table->tags, i + 1));
        }
      hcl_write_attributes (out, &body, 4);
      g_string_append (out, "  }\n");
    }
  g_string_append (out, "}\n");

  g_ptr_array_unref (body.keys);
  g_ptr_array_unref (body.values);
}

/* ---- CDK (TypeScript) -------------------------------------------------------------------- */

static void
append_ts_string (GString    *out,
                  const char *text)
{
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_VALUE);

  /* a JSON string is a TypeScript string */
  json_node_set_string (node, text);
  dyno_json_write_node (out, node, FALSE);
}

/* A key is S, N or B. */
static const char *
cdk_attribute_type (DynoValueType type)
{
  static const struct {
    DynoValueType  type;
    const char    *cdk;
  } key_types[] = {
    { DYNO_VALUE_N, "dynamodb.AttributeType.NUMBER" },
    { DYNO_VALUE_B, "dynamodb.AttributeType.BINARY" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (key_types); i++)
    if (key_types[i].type == type)
      return key_types[i].cdk;
  return "dynamodb.AttributeType.STRING";
}

static void
append_cdk_key (GString           *out,
                const char        *member,
                const DynoKeyAttr *key)
{
  g_string_append_printf (out, "  %s: { name: ", member);
  append_ts_string (out, key->name);
  g_string_append_printf (out, ", type: %s },\n", cdk_attribute_type (key->type));
}

static void
write_cdk_table (GString            *out,
                 const DynoIacTable *table,
                 GHashTable         *used)
{
  const char *name = dyno_table_info_get_name (table->info);
  g_autofree char *base = camel_case (name, TRUE);
  g_autofree char *id = unique_name (used, g_strconcat (base, "Table", NULL));
  g_autofree char *variable = camel_case (id, FALSE);
  gboolean on_demand = is_on_demand (table);

  g_string_append_printf (out, "const %s = new dynamodb.Table(stack, '%s', {\n", variable, id);
  g_string_append (out, "  tableName: ");
  append_ts_string (out, name);
  g_string_append (out, ",\n");
  append_cdk_key (out, "partitionKey", dyno_table_info_get_partition_key (table->info));
  if (dyno_table_info_get_sort_key (table->info)->name != NULL)
    append_cdk_key (out, "sortKey", dyno_table_info_get_sort_key (table->info));
  if (on_demand)
    g_string_append (out, "  billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,\n");
  else
    g_string_append_printf (out, "  billingMode: dynamodb.BillingMode.PROVISIONED,\n"
                            "  readCapacity: %" G_GINT64_FORMAT ",\n"
                            "  writeCapacity: %" G_GINT64_FORMAT ",\n",
                            MAX (dyno_table_info_get_read_capacity (table->info), 1),
                            MAX (dyno_table_info_get_write_capacity (table->info), 1));
  if (table->table_class != NULL)
    g_string_append_printf (out, "  tableClass: dynamodb.TableClass.%s,\n", table->table_class);
  if (table->stream_view_type != NULL)
    g_string_append_printf (out, "  stream: dynamodb.StreamViewType.%s,\n",
                            table->stream_view_type);
  if (table->ttl_attribute != NULL)
    {
      g_string_append (out, "  timeToLiveAttribute: ");
      append_ts_string (out, table->ttl_attribute);
      g_string_append (out, ",\n");
    }
  if (table->point_in_time_recovery)
    g_string_append (out, "  pointInTimeRecoverySpecification: "
                          "{ pointInTimeRecoveryEnabled: true },\n");
  if (table->kms_key != NULL)
    {
      g_string_append_printf (out, "  encryption: dynamodb.TableEncryption.CUSTOMER_MANAGED,\n"
                              "  encryptionKey: kms.Key.fromKeyArn(stack, '%sKey', ", id);
      append_ts_string (out, table->kms_key);
      g_string_append (out, "),\n");
    }
  if (table->deletion_protection)
    g_string_append (out, "  deletionProtection: true,\n");
  g_string_append (out, "  removalPolicy: RemovalPolicy.RETAIN,\n});\n");

  for (guint i = 0; i < dyno_table_info_get_n_indexes (table->info); i++)
    {
      const DynoIndexInfo *index = dyno_table_info_get_index (table->info, i);

      g_string_append_printf (out, "%s.add%sSecondaryIndex({\n  indexName: ", variable,
                              index->global ? "Global" : "Local");
      append_ts_string (out, index->name);
      g_string_append (out, ",\n");
      if (index->global)
        append_cdk_key (out, "partitionKey", &index->partition_key);
      if (index->sort_key.name != NULL)
        append_cdk_key (out, "sortKey", &index->sort_key);
      g_string_append_printf (out, "  projectionType: dynamodb.ProjectionType.%s,\n",
                              projection_name (index->projection));
      if (index->projection == DYNO_PROJECTION_INCLUDE && index->non_key_attributes != NULL)
        {
          g_string_append (out, "  nonKeyAttributes: [");
          for (guint j = 0; index->non_key_attributes[j] != NULL; j++)
            {
              if (j > 0)
                g_string_append (out, ", ");
              append_ts_string (out, index->non_key_attributes[j]);
            }
          g_string_append (out, "],\n");
        }
      if (index->global && !on_demand)
        g_string_append_printf (out, "  readCapacity: %" G_GINT64_FORMAT ",\n"
                                "  writeCapacity: %" G_GINT64_FORMAT ",\n",
                                MAX (index->read_capacity, 1), MAX (index->write_capacity, 1));
      g_string_append (out, "});\n");
    }
  for (guint i = 0; i + 1 < table->tags->len; i += 2)
    {
      g_string_append_printf (out, "Tags.of(%s).add(", variable);
      append_ts_string (out, g_ptr_array_index (table->tags, i));
      g_string_append (out, ", ");
      append_ts_string (out, g_ptr_array_index (table->tags, i + 1));
      g_string_append (out, ");\n");
    }
}

/* ---- one document ------------------------------------------------------------------------ */

char *
dyno_iac_generate (GPtrArray     *tables,
                   DynoIacFormat  format)
{
  GString *out = g_string_new (NULL);
  g_autoptr(GHashTable) used = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  gboolean kms = FALSE;

  g_return_val_if_fail (tables != NULL && tables->len > 0, NULL);

  for (guint i = 0; i < tables->len; i++)
    kms = kms || ((DynoIacTable *) g_ptr_array_index (tables, i))->kms_key != NULL;

  switch (format)
    {
    case DYNO_IAC_CLOUDFORMATION_JSON:
      {
        g_autoptr(JsonNode) template = cloudformation_template (tables);

        /* JSON has no comments: what could not be read goes in the Description */
        for (guint i = 0; i < tables->len; i++)
          {
            DynoIacTable *table = g_ptr_array_index (tables, i);

            if (table->unknown->len > 0)
              {
                g_autoptr(GString) note = g_string_new (NULL);

                write_unknown (note, tables, "Not read:");
                json_object_set_string_member (json_node_get_object (template), "Description",
                                               note->str);
                break;
              }
          }
        dyno_json_write_node (out, template, TRUE);
        g_string_append_c (out, '\n');
        break;
      }
    case DYNO_IAC_CLOUDFORMATION_YAML:
      {
        g_autoptr(JsonNode) template = cloudformation_template (tables);
        g_autoptr(GList) members = json_object_get_members (json_node_get_object (template));

        g_string_append (out, "# DynamoDB tables, described by DynoTable.\n");
        write_unknown (out, tables, "#");
        for (GList *l = members; l != NULL; l = l->next)
          {
            JsonNode *value = json_object_get_member (json_node_get_object (template), l->data);

            g_string_append_printf (out, "%s:", (const char *) l->data);
            write_yaml (out, value, 2, FALSE);
          }
        break;
      }
    case DYNO_IAC_TERRAFORM:
      g_string_append (out, "# DynamoDB tables, described by DynoTable.\n");
      write_unknown (out, tables, "#");
      for (guint i = 0; i < tables->len; i++)
        {
          g_string_append_c (out, '\n');
          write_terraform_table (out, g_ptr_array_index (tables, i), used);
        }
      break;
    case DYNO_IAC_CDK:
      g_string_append (out, "// DynamoDB tables, described by DynoTable.\n");
      write_unknown (out, tables, "//");
      g_string_append (out, "import { App, RemovalPolicy, Stack, Tags } from 'aws-cdk-lib';\n"
                            "import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';\n");
      if (kms)
        g_string_append (out, "import * as kms from 'aws-cdk-lib/aws-kms';\n");
      g_string_append (out, "\nconst app = new App();\n"
                            "const stack = new Stack(app, 'DynamoDbTables');\n");
      for (guint i = 0; i < tables->len; i++)
        {
          g_string_append_c (out, '\n');
          write_cdk_table (out, g_ptr_array_index (tables, i), used);
        }
      g_string_append (out, "\napp.synth();\n");
      break;
    }

  return g_string_free (out, FALSE);
}
