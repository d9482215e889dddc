/* test-safe-write.c: put-new, conditioned edits and deletes, diffs
 *
 * The conditions are checked by what they do: a small evaluator below applies them to the
 * item as the server would have it, so the tests say "a concurrent change to b is detected"
 * rather than "the text is …".
 *
 * With --emit it is also the small tool the integration test uses to prove the conditions
 * against DynamoDB Local (tests/integration/test_import_export.py):
 *
 *   test-safe-write --emit put-new|edit|delete TABLE PK SK LOADED [EDITED]
 *
 * (PK and SK are S-typed key attribute names; LOADED and EDITED DynamoDB-JSON items) prints
 * {"operation", "key", "item", "condition", "update"} with the expressions in the inline
 * syntax `dynotable-cli put|update|delete --condition/--update` take.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "dyno-error.h"
#include "dyno-json.h"
#include "dyno-request.h"
#include "dyno-safe-write.h"

static DynoItem *
item (const char *ddb_json)
{
  g_autoptr(GError) error = NULL;
  DynoItem *it = dyno_item_from_ddb_json (ddb_json, -1, &error);

  g_assert_no_error (error);
  return it;
}

static DynoTableInfo *
schema_new (void)
{
  return dyno_table_info_new ("orders", "pk", DYNO_VALUE_S, "sk", DYNO_VALUE_S);
}

/* ConditionExpression semantics for what the builder emits: AND, =, attribute_exists,
 * attribute_not_exists on top-level attributes.  @server is NULL when there is no item. */
static gboolean
holds (const DynoExpr *expr,
       const DynoItem *server)
{
  const DynoExpr *a, *b;

  switch (expr->kind)
    {
    case DYNO_EXPR_AND:
      return holds (g_ptr_array_index (expr->args, 0), server)
             && holds (g_ptr_array_index (expr->args, 1), server);
    case DYNO_EXPR_PAREN:
      return holds (g_ptr_array_index (expr->args, 0), server);
    case DYNO_EXPR_FUNCTION:
      a = g_ptr_array_index (expr->args, 0);
      g_assert_cmpint (a->kind, ==, DYNO_EXPR_PATH);
      g_assert_cmpuint (dyno_path_get_length (a->path), ==, 1);
      {
        gboolean present = server != NULL
                           && dyno_item_lookup (server, dyno_path_get_attribute (a->path)) != NULL;

        if (expr->op.function == DYNO_FUNCTION_ATTRIBUTE_EXISTS)
          return present;
        g_assert_cmpint (expr->op.function, ==, DYNO_FUNCTION_ATTRIBUTE_NOT_EXISTS);
        return !present;
      }
    case DYNO_EXPR_COMPARE:
      g_assert_cmpint (expr->op.compare, ==, DYNO_COMPARE_EQ);
      a = g_ptr_array_index (expr->args, 0);
      b = g_ptr_array_index (expr->args, 1);
      g_assert_cmpint (a->kind, ==, DYNO_EXPR_PATH);
      g_assert_cmpint (b->kind, ==, DYNO_EXPR_VALUE);
      {
        const DynoValue *v = server != NULL
                             ? dyno_item_lookup (server, dyno_path_get_attribute (a->path)) : NULL;

        return v != NULL && dyno_value_equal (v, b->value);
      }
    default:
      g_error ("unexpected node kind %d in a safe-write condition", expr->kind);
      return FALSE;
    }
}

/* Applies the update's SET value / REMOVE clauses (what the builder emits). */
static DynoItem *
apply_update (const DynoItem   *server,
              const DynoUpdate *update)
{
  g_autoptr(DynoValueBuilder) builder = dyno_value_builder_new ();
  const DynoValue *map = dyno_item_get_map (server);
  g_autoptr(GHashTable) touched = g_hash_table_new (g_str_hash, g_str_equal);

  dyno_value_builder_begin (builder, DYNO_VALUE_M);
  for (guint i = 0; i < update->clauses->len; i++)
    {
      const DynoUpdateClause *clause = g_ptr_array_index (update->clauses, i);
      const char *name = dyno_path_get_attribute (clause->path);

      g_assert_cmpuint (dyno_path_get_length (clause->path), ==, 1);
      g_assert_true (g_hash_table_add (touched, (gpointer) name));
      if (clause->action == DYNO_UPDATE_SET)
        {
          g_assert_cmpint (clause->operand->kind, ==, DYNO_EXPR_VALUE);
          dyno_value_builder_key (builder, name, -1);
          dyno_value_builder_add_value (builder, clause->operand->value);
        }
      else
        g_assert_cmpint (clause->action, ==, DYNO_UPDATE_REMOVE);
    }
  for (guint i = 0; i < dyno_value_get_n_children (map); i++)
    {
      const char *name = dyno_value_get_member_name (map, i, NULL);

      if (g_hash_table_contains (touched, name))
        continue;
      dyno_value_builder_key (builder, name, -1);
      dyno_value_builder_add_value (builder, dyno_value_get_child (map, i));
    }
  g_assert_true (dyno_value_builder_end (builder, NULL));
  return dyno_item_new_take (dyno_value_builder_finish (builder));
}

static const char *loaded_json =
  "{\"pk\":{\"S\":\"TENANT#acme\"},\"sk\":{\"S\":\"USER#u_3001\"},\"name\":{\"S\":\"Ann\"},"
  "\"status\":{\"S\":\"active\"},\"tags\":{\"SS\":[\"a\",\"b\"]},"
  "\"prefs\":{\"M\":{\"theme\":{\"S\":\"dark\"}}},\"n\":{\"N\":\"1\"}}";
static const char *edited_json =
  "{\"pk\":{\"S\":\"TENANT#acme\"},\"sk\":{\"S\":\"USER#u_3001\"},\"name\":{\"S\":\"Ann B\"},"
  "\"tags\":{\"SS\":[\"b\",\"a\"]},"
  "\"prefs\":{\"M\":{\"theme\":{\"S\":\"dark\"}}},\"n\":{\"N\":\"1\"},\"email\":{\"S\":\"a@x\"}}";

static void
test_put_new (void)
{
  g_autoptr(DynoTableInfo) schema = schema_new ();
  g_autoptr(DynoItem) it = item (loaded_json);
  g_autoptr(DynoItem) keyless = item ("{\"pk\":{\"S\":\"x\"}}");
  g_autoptr(GError) error = NULL;
  g_autoptr(DynoRequest) request = dyno_safe_write_put_new (schema, it, NULL, &error);
  g_autoptr(DynoPrintedRequest) printed = NULL;
  g_autoptr(GPtrArray) issues = NULL;
  g_autoptr(DynoRequest) bad = NULL;

  g_assert_no_error (error);
  g_assert_cmpint (request->operation, ==, DYNO_OP_PUT_ITEM);
  g_assert_true (dyno_item_equal (request->item, it));
  /* passes on an empty slot, fails when the key exists */
  g_assert_true (holds (request->condition, NULL));
  g_assert_false (holds (request->condition, it));
  printed = dyno_request_print (request);
  g_assert_cmpstr (printed->condition, ==, "attribute_not_exists(pk) AND attribute_not_exists(sk)");
  issues = dyno_request_validate (request, schema);
  g_assert_cmpuint (issues->len, ==, 0);

  bad = dyno_safe_write_put_new (schema, keyless, NULL, &error);
  g_assert_null (bad);
  g_assert_error (error, DYNO_ERROR, DYNO_ERROR_VALIDATION);
  g_assert_nonnull (strstr (error->message, "sk"));
}

static void
test_put_new_version (void)
{
  g_autoptr(DynoTableInfo) schema = schema_new ();
  g_autoptr(DynoItem) it = item (loaded_json);
  DynoSafeWriteOptions options = { .version_attribute = "version" };
  g_autoptr(DynoRequest) request = dyno_safe_write_put_new (schema, it, &options, NULL);
  const DynoValue *version = dyno_item_lookup (request->item, "version");

  g_assert_nonnull (version);
  g_assert_cmpstr (dyno_value_get_string (version, NULL), ==, "1");
  g_assert_cmpuint (dyno_item_get_n_attributes (request->item), ==,
                    dyno_item_get_n_attributes (it) + 1);
}

static void
test_edit_detects_concurrent_changes (void)
{
  g_autoptr(DynoTableInfo) schema = schema_new ();
  g_autoptr(DynoItem) loaded = item (loaded_json);
  g_autoptr(DynoItem) edited = item (edited_json);
  g_autoptr(GError) error = NULL;
  DynoSafeWriteInfo info = { 0, };
  g_autoptr(DynoRequest) request = dyno_safe_write_edit (schema, loaded, edited, NULL, &info,
                                                         &error);
  g_autoptr(DynoItem) result = NULL;
  g_autoptr(GPtrArray) issues = NULL;
  const char *changed_behind[] = {
    /* each loaded attribute changed, removed, or a new one the edit also adds */
    "{\"pk\":{\"S\":\"TENANT#acme\"},\"sk\":{\"S\":\"USER#u_3001\"},\"name\":{\"S\":\"Bob\"},"
    "\"status\":{\"S\":\"active\"},\"tags\":{\"SS\":[\"a\",\"b\"]},"
    "\"prefs\":{\"M\":{\"theme\":{\"S\":\"dark\"}}},\"n\":{\"N\":\"1\"}}",
    "{\"pk\":{\"S\":\"TENANT#acme\"},\"sk\":{\"S\":\"USER#u_3001\"},\"name\":{\"S\":\"Ann\"},"
    "\"status\":{\"S\":\"closed\"},\"tags\":{\"SS\":[\"a\",\"b\"]},"
    "\"prefs\":{\"M\":{\"theme\":{\"S\":\"dark\"}}},\"n\":{\"N\":\"1\"}}",
    "{\"pk\":{\"S\":\"TENANT#acme\"},\"sk\":{\"S\":\"USER#u_3001\"},\"name\":{\"S\":\"Ann\"},"
    "\"tags\":{\"SS\":[\"a\",\"b\"]},"
    "\"prefs\":{\"M\":{\"theme\":{\"S\":\"dark\"}}},\"n\":{\"N\":\"1\"}}",
    "{\"pk\":{\"S\":\"TENANT#acme\"},\"sk\":{\"S\":\"USER#u_3001\"},\"name\":{\"S\":\"Ann\"},"
    "\"status\":{\"S\":\"active\"},\"tags\":{\"SS\":[\"a\",\"b\"]},"
    "\"prefs\":{\"M\":{\"theme\":{\"S\":\"light\"}}},\"n\":{\"N\":\"1\"}}",
    "{\"pk\":{\"S\":\"TENANT#acme\"},\"sk\":{\"S\":\"USER#u_3001\"},\"name\":{\"S\":\"Ann\"},"
    "\"status\":{\"S\":\"active\"},\"tags\":{\"SS\":[\"a\",\"b\"]},"
    "\"prefs\":{\"M\":{\"theme\":{\"S\":\"dark\"}}},\"n\":{\"N\":\"1.0001\"}}",
    "{\"pk\":{\"S\":\"TENANT#acme\"},\"sk\":{\"S\":\"USER#u_3001\"},\"name\":{\"S\":\"Ann\"},"
    "\"status\":{\"S\":\"active\"},\"tags\":{\"SS\":[\"a\",\"b\"]},"
    "\"prefs\":{\"M\":{\"theme\":{\"S\":\"dark\"}}},\"n\":{\"N\":\"1\"},"
    "\"email\":{\"S\":\"other@x\"}}",
  };

  g_assert_no_error (error);
  g_assert_cmpint (request->operation, ==, DYNO_OP_UPDATE_ITEM);
  g_assert_cmpint (info.strategy, ==, DYNO_SAFE_WRITE_UPDATE);
  g_assert_true (info.covers_all);
  g_assert_cmpuint (info.n_conditioned, ==, 6); /* 5 loaded non-key + email absent */
  g_assert_null (info.note);
  issues = dyno_request_validate (request, schema);
  g_assert_cmpuint (issues->len, ==, 0);

  /* the key, not the item */
  g_assert_cmpuint (dyno_item_get_n_attributes (request->key), ==, 2);

  /* unchanged server: the condition holds and the update gives exactly the edit */
  g_assert_true (holds (request->condition, loaded));
  result = apply_update (loaded, request->update);
  g_assert_true (dyno_item_equal (result, edited));
  /* only what changed is written: name (SET), status (REMOVE), email (SET) */
  g_assert_cmpuint (request->update->clauses->len, ==, 3);

  /* any concurrent change to something the user saw, or deletion, is detected */
  for (guint i = 0; i < G_N_ELEMENTS (changed_behind); i++)
    {
      g_autoptr(DynoItem) server = item (changed_behind[i]);

      if (holds (request->condition, server))
        g_error ("concurrent change %u was not detected", i);
    }
  g_assert_false (holds (request->condition, NULL));
}

static void
test_edit_errors (void)
{
  g_autoptr(DynoTableInfo) schema = schema_new ();
  g_autoptr(DynoItem) loaded = item (loaded_json);
  g_autoptr(DynoItem) moved = item ("{\"pk\":{\"S\":\"TENANT#acme\"},\"sk\":{\"S\":\"USER#2\"}}");
  g_autoptr(GError) error = NULL;
  g_autoptr(DynoRequest) same = dyno_safe_write_edit (schema, loaded, loaded, NULL, NULL,
                                                      &error);

  g_assert_null (same);
  g_assert_error (error, DYNO_ERROR, DYNO_ERROR_VALIDATION);
  g_assert_nonnull (strstr (error->message, "unchanged"));
  g_clear_error (&error);

  g_assert_null (dyno_safe_write_edit (schema, loaded, moved, NULL, NULL, &error));
  g_assert_error (error, DYNO_ERROR, DYNO_ERROR_VALIDATION);
  g_assert_nonnull (strstr (error->message, "sk"));
}

static void
test_edit_absent_attributes (void)
{
  g_autoptr(DynoTableInfo) schema = schema_new ();
  g_autoptr(DynoItem) loaded = item (loaded_json);
  g_autoptr(DynoItem) edited = item (edited_json);
  const char *absent[] = { "deletedAt", "name", NULL };
  DynoSafeWriteOptions options = { .absent_attributes = absent };
  g_autoptr(DynoRequest) request = dyno_safe_write_edit (schema, loaded, edited, &options, NULL,
                                                         NULL);
  g_autoptr(DynoItem) server = item (
    "{\"pk\":{\"S\":\"TENANT#acme\"},\"sk\":{\"S\":\"USER#u_3001\"},\"name\":{\"S\":\"Ann\"},"
    "\"status\":{\"S\":\"active\"},\"tags\":{\"SS\":[\"a\",\"b\"]},"
    "\"prefs\":{\"M\":{\"theme\":{\"S\":\"dark\"}}},\"n\":{\"N\":\"1\"},"
    "\"deletedAt\":{\"S\":\"2026-06-23\"}}");

  g_assert_true (holds (request->condition, loaded));
  /* someone set an attribute the user saw empty */
  g_assert_false (holds (request->condition, server));
}

static void
test_edit_version (void)
{
  g_autoptr(DynoTableInfo) schema = schema_new ();
  g_autoptr(DynoItem) loaded = item ("{\"pk\":{\"S\":\"a\"},\"sk\":{\"S\":\"b\"},"
                                     "\"v\":{\"N\":\"41\"},\"x\":{\"S\":\"1\"}}");
  g_autoptr(DynoItem) edited = item ("{\"pk\":{\"S\":\"a\"},\"sk\":{\"S\":\"b\"},"
                                     "\"v\":{\"N\":\"41\"},\"x\":{\"S\":\"2\"}}");
  g_autoptr(DynoItem) bumped = item ("{\"pk\":{\"S\":\"a\"},\"sk\":{\"S\":\"b\"},"
                                     "\"v\":{\"N\":\"42\"},\"x\":{\"S\":\"1\"}}");
  DynoSafeWriteOptions options = { .version_attribute = "v" };
  DynoSafeWriteInfo info = { 0, };
  g_autoptr(DynoRequest) request = dyno_safe_write_edit (schema, loaded, edited, &options,
                                                         &info, NULL);
  g_autoptr(DynoItem) result = NULL;

  g_assert_nonnull (request);
  g_assert_true (info.uses_version);
  g_assert_true (holds (request->condition, loaded));
  /* another writer bumped the version only: still detected */
  g_assert_false (holds (request->condition, bumped));
  result = apply_update (loaded, request->update);
  g_assert_cmpstr (dyno_value_get_string (dyno_item_lookup (result, "v"), NULL), ==, "42");
  g_assert_cmpstr (dyno_value_get_string (dyno_item_lookup (result, "x"), NULL), ==, "2");
}

/* An item of many attributes: the full condition does not fit the limit. */
static DynoItem *
wide_item (guint       n,
           const char *changed)
{
  g_autoptr(GString) json = g_string_new ("{\"pk\":{\"S\":\"a\"},\"sk\":{\"S\":\"b\"}");

  for (guint i = 0; i < n; i++)
    g_string_append_printf (json, ",\"attribute_%03u\":{\"S\":\"%s\"}", i,
                            changed != NULL && i < 3 ? changed : "value");
  g_string_append_c (json, '}');
  return item (json->str);
}

static void
test_edit_too_wide (void)
{
  g_autoptr(DynoTableInfo) schema = schema_new ();
  g_autoptr(DynoItem) loaded = wide_item (300, NULL);
  g_autoptr(DynoItem) edited = wide_item (300, "new");
  DynoSafeWriteInfo info = { 0, };
  g_autoptr(GError) error = NULL;
  g_autoptr(DynoRequest) request = dyno_safe_write_edit (schema, loaded, edited, NULL, &info,
                                                         &error);
  g_autoptr(DynoPrintedRequest) printed = NULL;

  g_assert_no_error (error);
  printed = dyno_request_print (request);
  g_assert_cmpuint (strlen (printed->condition), <=, DYNO_SAFE_WRITE_MAX_EXPRESSION_BYTES);
  /* cut to the changed attributes, and it says so */
  g_assert_false (info.covers_all);
  g_assert_cmpuint (info.n_conditioned, ==, 3);
  g_assert_nonnull (info.note);
  g_assert_cmpint (info.strategy, ==, DYNO_SAFE_WRITE_UPDATE);
  g_assert_true (holds (request->condition, loaded));
  g_assert_false (holds (request->condition, edited));
  dyno_safe_write_info_clear (&info);
}

static void
test_edit_falls_back_to_put (void)
{
  g_autoptr(DynoTableInfo) schema = schema_new ();
  g_autoptr(DynoItem) loaded = wide_item (40, NULL);
  g_autoptr(DynoItem) edited = wide_item (40, "new");
  DynoSafeWriteOptions options = { .max_expression_bytes = 60 };
  DynoSafeWriteOptions roomy = { .max_expression_bytes = 2000 };
  DynoSafeWriteInfo info = { 0, };
  g_autoptr(DynoRequest) request = NULL;
  g_autoptr(DynoRequest) roomy_request = NULL;
  g_autoptr(GError) error = NULL;

  /* 60 bytes hold neither the update nor the full condition: an error names the fix */
  request = dyno_safe_write_edit (schema, loaded, edited, &options, &info, &error);
  g_assert_null (request);
  g_assert_error (error, DYNO_ERROR, DYNO_ERROR_VALIDATION);
  g_assert_nonnull (strstr (error->message, "version"));
  g_clear_error (&error);
  dyno_safe_write_info_clear (&info);

  /* with a version attribute the condition can be cut to the version: it fits, and the
   * update that does not is sent as a conditional Put */
  options.version_attribute = "v";
  options.max_expression_bytes = 100;
  request = dyno_safe_write_edit (schema, loaded, edited, &options, &info, &error);
  g_assert_no_error (error);
  g_assert_cmpint (request->operation, ==, DYNO_OP_PUT_ITEM);
  g_assert_cmpint (info.strategy, ==, DYNO_SAFE_WRITE_PUT);
  g_assert_false (info.covers_all);
  g_assert_true (info.uses_version);
  g_assert_nonnull (info.note);
  g_assert_cmpstr (dyno_value_get_string (dyno_item_lookup (request->item, "v"), NULL), ==, "1");
  g_assert_true (holds (request->condition, loaded));
  dyno_safe_write_info_clear (&info);

  roomy_request = dyno_safe_write_edit (schema, loaded, edited, &roomy, &info, &error);
  g_assert_no_error (error);
  g_assert_cmpint (roomy_request->operation, ==, DYNO_OP_UPDATE_ITEM);
  dyno_safe_write_info_clear (&info);
}

static void
test_delete (void)
{
  g_autoptr(DynoTableInfo) schema = schema_new ();
  g_autoptr(DynoItem) loaded = item (loaded_json);
  g_autoptr(DynoItem) changed = item (edited_json);
  DynoSafeWriteInfo info = { 0, };
  g_autoptr(DynoRequest) request = dyno_safe_write_delete (schema, loaded, NULL, &info, NULL);

  g_assert_cmpint (request->operation, ==, DYNO_OP_DELETE_ITEM);
  g_assert_cmpuint (dyno_item_get_n_attributes (request->key), ==, 2);
  g_assert_true (info.covers_all);
  g_assert_true (holds (request->condition, loaded));
  g_assert_false (holds (request->condition, changed));
  g_assert_false (holds (request->condition, NULL));
}

static void
test_diff (void)
{
  g_autoptr(DynoItem) loaded = item (loaded_json);
  g_autoptr(DynoItem) edited = item (edited_json);
  g_autoptr(GPtrArray) diff = dyno_item_diff (loaded, edited);
  g_autoptr(GPtrArray) none = dyno_item_diff (loaded, loaded);
  g_autoptr(GPtrArray) all = dyno_item_diff (NULL, loaded);
  const DynoDiffEntry *e;

  /* sorted by name; tags are equal as sets */
  g_assert_cmpuint (diff->len, ==, 3);
  e = g_ptr_array_index (diff, 0);
  g_assert_cmpstr (e->attribute, ==, "email");
  g_assert_cmpint (e->kind, ==, DYNO_DIFF_ADDED);
  g_assert_null (e->old_value);
  e = g_ptr_array_index (diff, 1);
  g_assert_cmpstr (e->attribute, ==, "name");
  g_assert_cmpint (e->kind, ==, DYNO_DIFF_CHANGED);
  g_assert_cmpstr (dyno_value_get_string (e->old_value, NULL), ==, "Ann");
  g_assert_cmpstr (dyno_value_get_string (e->new_value, NULL), ==, "Ann B");
  e = g_ptr_array_index (diff, 2);
  g_assert_cmpstr (e->attribute, ==, "status");
  g_assert_cmpint (e->kind, ==, DYNO_DIFF_REMOVED);

  g_assert_cmpuint (none->len, ==, 0);
  g_assert_cmpuint (all->len, ==, dyno_item_get_n_attributes (loaded));
}

static void
test_conflicts (void)
{
  g_autoptr(DynoItem) loaded = item ("{\"a\":{\"S\":\"1\"},\"b\":{\"S\":\"1\"},\"c\":{\"S\":\"1\"}}");
  g_autoptr(DynoItem) mine = item ("{\"a\":{\"S\":\"2\"},\"b\":{\"S\":\"2\"},\"c\":{\"S\":\"1\"}}");
  g_autoptr(DynoItem) theirs = item ("{\"a\":{\"S\":\"3\"},\"b\":{\"S\":\"2\"},\"c\":{\"S\":\"9\"},"
                                     "\"d\":{\"S\":\"new\"}}");
  g_auto(GStrv) conflicts = dyno_item_conflicting_attributes (loaded, mine, theirs);

  /* a: both changed differently; b: both made the same change; c, d: only theirs */
  g_assert_cmpuint (g_strv_length (conflicts), ==, 1);
  g_assert_cmpstr (conflicts[0], ==, "a");
}

static int
emit (int    argc,
      char **argv)
{
  g_autoptr(DynoTableInfo) schema = NULL;
  g_autoptr(DynoItem) loaded = NULL;
  g_autoptr(DynoItem) edited = NULL;
  g_autoptr(DynoRequest) request = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) out = g_string_new ("{\"operation\":");
  g_autofree char *condition = NULL;
  g_autofree char *update = NULL;

  if (argc < 7)
    {
      g_printerr ("usage: test-safe-write --emit put-new|edit|delete TABLE PK SK LOADED [EDITED]\n");
      return 2;
    }
  schema = dyno_table_info_new (argv[3], argv[4], DYNO_VALUE_S, argv[5], DYNO_VALUE_S);
  loaded = dyno_item_from_ddb_json (argv[6], -1, &error);
  if (loaded != NULL && argc > 7)
    edited = dyno_item_from_ddb_json (argv[7], -1, &error);
  if (loaded == NULL || (argc > 7 && edited == NULL))
    {
      g_printerr ("%s\n", error->message);
      return 2;
    }

  if (strcmp (argv[2], "put-new") == 0)
    request = dyno_safe_write_put_new (schema, loaded, NULL, &error);
  else if (strcmp (argv[2], "edit") == 0 && edited != NULL)
    request = dyno_safe_write_edit (schema, loaded, edited, NULL, NULL, &error);
  else if (strcmp (argv[2], "delete") == 0)
    request = dyno_safe_write_delete (schema, loaded, NULL, NULL, &error);
  if (request == NULL)
    {
      g_printerr ("%s\n", error != NULL ? error->message : "unknown mode");
      return 2;
    }

  dyno_json_write_string (out, dyno_operation_to_string (request->operation), -1);
  g_string_append (out, ",\"key\":");
  if (request->key != NULL)
    dyno_map_write_ddb_item (dyno_item_get_map (request->key), out);
  else
    g_string_append (out, "null");
  g_string_append (out, ",\"item\":");
  if (request->item != NULL)
    dyno_map_write_ddb_item (dyno_item_get_map (request->item), out);
  else
    g_string_append (out, "null");
  condition = dyno_expr_to_inline (request->condition);
  g_string_append (out, ",\"condition\":");
  dyno_json_write_string (out, condition, -1);
  g_string_append (out, ",\"update\":");
  if (request->update != NULL)
    {
      update = dyno_update_to_inline (request->update);
      dyno_json_write_string (out, update, -1);
    }
  else
    g_string_append (out, "null");
  g_string_append (out, "}\n");
  fputs (out->str, stdout);
  return 0;
}

/* Attribute names may hold U+0000: "k\u0000" and "k" are two attributes, and the request
 * names each whole. */
static void
test_nul_names (void)
{
  g_autoptr(DynoTableInfo) schema = schema_new ();
  g_autoptr(DynoItem) loaded = item ("{\"pk\":{\"S\":\"a\"},\"sk\":{\"S\":\"b\"},"
                                     "\"k\\u0000\":{\"S\":\"v\"},\"k\":{\"S\":\"w\"}}");
  g_autoptr(DynoItem) edited = item ("{\"pk\":{\"S\":\"a\"},\"sk\":{\"S\":\"b\"},"
                                     "\"k\\u0000\":{\"S\":\"v2\"},\"k\":{\"S\":\"w\"}}");
  g_autoptr(GError) error = NULL;
  g_autoptr(DynoRequest) request = dyno_safe_write_edit (schema, loaded, edited, NULL, NULL,
                                                         &error);
  g_autofree char *json = NULL;
  g_autoptr(GPtrArray) diff = dyno_item_diff (loaded, edited);
  g_autoptr(DynoRequest) back = NULL;

  g_assert_no_error (error);
  json = dyno_request_to_json (request, FALSE);
  /* Both names whole in ExpressionAttributeNames, the new value set on the one with the NUL. */
  g_assert_nonnull (strstr (json, "\"k\\u0000\""));
  g_assert_nonnull (strstr (json, "\"v2\""));
  back = dyno_request_from_json (json, -1, -1, &error);
  g_assert_no_error (error);
  g_assert_true (dyno_request_equal (request, back));

  /* The diff sees one changed attribute, "k\u0000", not "k". */
  g_assert_cmpuint (diff->len, ==, 1);
}

int
main (int    argc,
      char **argv)
{
  if (argc > 1 && strcmp (argv[1], "--emit") == 0)
    return emit (argc, argv);

  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/safe-write/put-new", test_put_new);
  g_test_add_func ("/safe-write/put-new-version", test_put_new_version);
  g_test_add_func ("/safe-write/edit-detects-concurrent-changes",
                   test_edit_detects_concurrent_changes);
  g_test_add_func ("/safe-write/edit-errors", test_edit_errors);
  g_test_add_func ("/safe-write/edit-absent-attributes", test_edit_absent_attributes);
  g_test_add_func ("/safe-write/edit-version", test_edit_version);
  g_test_add_func ("/safe-write/edit-too-wide", test_edit_too_wide);
  g_test_add_func ("/safe-write/edit-falls-back-to-put", test_edit_falls_back_to_put);
  g_test_add_func ("/safe-write/delete", test_delete);
  g_test_add_func ("/safe-write/diff", test_diff);
  g_test_add_func ("/safe-write/conflicts", test_conflicts);
  g_test_add_func ("/safe-write/nul-names", test_nul_names);

  return g_test_run ();
}
