/* test-table-design.c: the table designer's model, its rules and its requests
 *
 * Every rule is tested from a valid design changed in one place: the valid design has no
 * problem, the changed one has a problem under the expected field.
 *
 * The program is also the headless validator the integration test (test_table_design.py)
 * compares with DynamoDB Local:
 *
 *   test-table-design --validate FILE       FILE: a CreateTable request or a JSON list of them;
 *                                           prints a JSON list of {"valid", "problems",
 *                                           "error", "request"} (request = our CreateTable)
 *   test-table-design --validate-index DESCRIBE FILE
 *                                           FILE: a list of {"AttributeDefinitions",
 *                                           "Create": {…GSI…}} against the DescribeTable
 *                                           output DESCRIBE; prints the same list ("request"
 *                                           = our UpdateTable)
 *   test-table-design --matches DESIGN DESCRIBE
 *                                           exit 0 when DescribeTable output DESCRIBE has the
 *                                           schema of the CreateTable request DESIGN, else 1
 *                                           with the difference on stderr
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "dyno-error.h"
#include "dyno-table-design.h"

/* ---- helpers --------------------------------------------------------------------------- */

/* A valid design: table "orders" (pk S, sk S), on-demand, one GSI "gsi1" (gsi1pk S / gsi1sk N,
 * INCLUDE total) and one LSI "by-date" (pk / created S, KEYS_ONLY). */
static DynoTableDesign *
valid_design (void)
{
  DynoTableDesign *design = dyno_table_design_new ();
  DynoIndexDesign *gsi, *lsi;
  const char *attrs[] = { "total", "status", NULL };

  dyno_table_design_set_table_name (design, "orders");
  dyno_table_design_set_partition_key (design, "pk", DYNO_VALUE_S);
  dyno_table_design_set_sort_key (design, "sk", DYNO_VALUE_S);

  gsi = dyno_table_design_get_index (design, dyno_table_design_add_index (design, TRUE));
  dyno_table_design_index_set_name (gsi, "gsi1");
  dyno_table_design_index_set_partition_key (gsi, "gsi1pk", DYNO_VALUE_S);
  dyno_table_design_index_set_sort_key (gsi, "gsi1sk", DYNO_VALUE_N);
  dyno_table_design_index_set_projection (gsi, DYNO_PROJECTION_INCLUDE);
  dyno_table_design_index_set_non_key_attributes (gsi, attrs);

  lsi = dyno_table_design_get_index (design, dyno_table_design_add_index (design, FALSE));
  dyno_table_design_index_set_name (lsi, "by-date");
  dyno_table_design_index_set_sort_key (lsi, "created", DYNO_VALUE_S);
  dyno_table_design_index_set_projection (lsi, DYNO_PROJECTION_KEYS_ONLY);
  return design;
}

static DynoIndexDesign *
gsi_of (DynoTableDesign *design)
{
  return dyno_table_design_get_index (design, 0);
}

static DynoIndexDesign *
lsi_of (DynoTableDesign *design)
{
  return dyno_table_design_get_index (design, 1);
}

static void
assert_valid (DynoTableDesign *design)
{
  g_autoptr(GPtrArray) problems = dyno_table_design_validate (design);

  for (guint i = 0; i < problems->len; i++)
    {
      DynoDesignProblem *p = g_ptr_array_index (problems, i);
      g_test_message ("unexpected problem: %s: %s", p->field, p->message);
    }
  g_assert_cmpuint (problems->len, ==, 0);
}

/* Asserts a problem under @field whose message contains @fragment; returns the message. */
static char *
assert_problem (DynoTableDesign *design,
                const char      *field,
                const char      *fragment)
{
  g_autoptr(GPtrArray) problems = dyno_table_design_validate (design);
  g_autofree char *messages = dyno_design_problems_for_field (problems, field);

  if (messages == NULL)
    {
      for (guint i = 0; i < problems->len; i++)
        {
          DynoDesignProblem *p = g_ptr_array_index (problems, i);
          g_test_message ("problem: %s: %s", p->field, p->message);
        }
      g_error ("no problem under “%s”", field);
    }
  if (fragment != NULL && strstr (messages, fragment) == NULL)
    g_error ("problem under “%s” is “%s”, expected it to mention “%s”", field, messages,
             fragment);
  return g_steal_pointer (&messages);
}

static void
assert_no_problem (DynoTableDesign *design,
                   const char      *field)
{
  g_autoptr(GPtrArray) problems = dyno_table_design_validate (design);
  g_autofree char *messages = dyno_design_problems_for_field (problems, field);

  g_assert_cmpstr (messages, ==, NULL);
}

static JsonObject *
object_at (JsonNode   *node,
           const char *path)
{
  g_autoptr(JsonNode) result = json_path_query (path, node, NULL);
  JsonArray *array = json_node_get_array (result);

  g_assert_cmpuint (json_array_get_length (array), ==, 1);
  return json_node_dup_object (json_array_get_element (array, 0));
}

static char *
string_at (JsonNode   *node,
           const char *path)
{
  g_autoptr(JsonNode) result = json_path_query (path, node, NULL);
  JsonArray *array = json_node_get_array (result);

  if (json_array_get_length (array) != 1)
    return NULL;
  return g_strdup (json_node_get_string (json_array_get_element (array, 0)));
}

/* ---- tests: the table ------------------------------------------------------------------ */

static void
test_valid_design (void)
{
  g_autoptr(DynoTableDesign) design = valid_design ();
  g_autoptr(DynoTableDesign) fresh = dyno_table_design_new ();

  assert_valid (design);
  /* a fresh design only lacks its name */
  g_free (assert_problem (fresh, "table-name", "Enter"));
  dyno_table_design_set_table_name (fresh, "abc");
  assert_valid (fresh);
}

static void
test_table_name (void)
{
  g_autoptr(DynoTableDesign) design = valid_design ();
  g_autofree char *long_name = g_strnfill (256, 'a');
  g_autofree char *max_name = g_strnfill (255, 'a');
  g_autofree char *m = NULL;

  dyno_table_design_set_table_name (design, "ab");
  g_free (assert_problem (design, "table-name", "3 to 255"));
  dyno_table_design_set_table_name (design, "abc");
  assert_valid (design);
  dyno_table_design_set_table_name (design, long_name);
  g_free (assert_problem (design, "table-name", "256"));
  dyno_table_design_set_table_name (design, max_name);
  assert_valid (design);
  dyno_table_design_set_table_name (design, "A-z_0.9");
  assert_valid (design);
  dyno_table_design_set_table_name (design, "my table");
  m = assert_problem (design, "table-name", "“ ”");
  dyno_table_design_set_table_name (design, "tabla-ñ");
  g_free (assert_problem (design, "table-name", "“ñ”"));
  dyno_table_design_set_table_name (design, "");
  g_free (assert_problem (design, "table-name", "Enter"));
}

static void
test_key_names (void)
{
  g_autoptr(DynoTableDesign) design = valid_design ();
  g_autofree char *long_name = g_strnfill (256, 'k');
  g_autofree char *max_name = g_strnfill (255, 'k');

  dyno_table_design_set_partition_key (design, "", DYNO_VALUE_S);
  g_free (assert_problem (design, "partition-key-name", "Enter"));
  dyno_table_design_set_partition_key (design, long_name, DYNO_VALUE_S);
  g_free (assert_problem (design, "partition-key-name", "255 bytes"));
  /* the LSI's partition key follows the table's */
  dyno_table_design_index_set_partition_key (lsi_of (design), max_name, DYNO_VALUE_S);
  dyno_table_design_set_partition_key (design, max_name, DYNO_VALUE_S);
  assert_valid (design);
  /* bytes, not characters: 128 two-byte characters are 256 bytes */
  {
    GString *s = g_string_new (NULL);
    for (guint i = 0; i < 128; i++)
      g_string_append (s, "é");
    dyno_table_design_set_sort_key (design, s->str, DYNO_VALUE_S);
    g_free (assert_problem (design, "sort-key-name", "256"));
    g_string_free (s, TRUE);
  }
  dyno_table_design_set_sort_key (design, "sk", DYNO_VALUE_S);
  assert_valid (design);
}

static void
test_key_types (void)
{
  g_autoptr(DynoTableDesign) design = valid_design ();

  dyno_table_design_set_partition_key (design, "pk", DYNO_VALUE_BOOL);
  g_free (assert_problem (design, "partition-key-type", "BOOL"));
  dyno_table_design_set_partition_key (design, "pk", DYNO_VALUE_N);
  dyno_table_design_set_sort_key (design, "sk", DYNO_VALUE_SS);
  g_free (assert_problem (design, "sort-key-type", "SS"));
  dyno_table_design_set_sort_key (design, "sk", DYNO_VALUE_B);
  assert_valid (design);
  dyno_table_design_index_set_sort_key (gsi_of (design), "gsi1sk", DYNO_VALUE_M);
  g_free (assert_problem (design, "index:0:sort-key-type", "String (S), Number (N) or Binary"));
  dyno_table_design_index_set_sort_key (gsi_of (design), "gsi1sk", DYNO_VALUE_B);
  dyno_table_design_index_set_partition_key (gsi_of (design), "gsi1pk", DYNO_VALUE_L);
  g_free (assert_problem (design, "index:0:partition-key-type", "L"));
}

static void
test_sort_key_differs_from_partition_key (void)
{
  g_autoptr(DynoTableDesign) design = valid_design ();

  dyno_table_design_set_sort_key (design, "pk", DYNO_VALUE_S);
  g_free (assert_problem (design, "sort-key-name", "different attribute"));
  dyno_table_design_set_sort_key (design, "sk", DYNO_VALUE_S);
  dyno_table_design_index_set_sort_key (gsi_of (design), "gsi1pk", DYNO_VALUE_S);
  g_free (assert_problem (design, "index:0:sort-key-name", "different attribute"));
}

static void
test_one_type_per_attribute (void)
{
  g_autoptr(DynoTableDesign) design = valid_design ();
  g_autofree char *m = NULL;

  /* the GSI reuses the table's sort key with another type */
  dyno_table_design_index_set_partition_key (gsi_of (design), "sk", DYNO_VALUE_N);
  m = assert_problem (design, "index:0:partition-key-type", "“sk” is already a String (S)");
  /* same type: fine (an overloaded GSI on the table's sort key) */
  dyno_table_design_index_set_partition_key (gsi_of (design), "sk", DYNO_VALUE_S);
  assert_valid (design);
  /* the LSI's sort key is the GSI's sort key with another type */
  dyno_table_design_index_set_sort_key (lsi_of (design), "gsi1sk", DYNO_VALUE_S);
  g_free (assert_problem (design, "index:1:sort-key-type", "Number (N)"));
  dyno_table_design_index_set_sort_key (lsi_of (design), "gsi1sk", DYNO_VALUE_N);
  assert_valid (design);
}

static void
test_billing (void)
{
  g_autoptr(DynoTableDesign) design = valid_design ();

  /* on-demand: no capacity anywhere */
  dyno_table_design_set_capacity (design, 5, -1);
  g_free (assert_problem (design, "read-capacity", "On-demand"));
  assert_no_problem (design, "write-capacity");
  dyno_table_design_set_capacity (design, -1, -1);
  dyno_table_design_index_set_capacity (gsi_of (design), -1, 3);
  g_free (assert_problem (design, "index:0:write-capacity", "On-demand"));
  dyno_table_design_index_set_capacity (gsi_of (design), -1, -1);
  assert_valid (design);

  /* provisioned: capacity ≥ 1 for the table and every GSI */
  dyno_table_design_set_billing_mode (design, DYNO_BILLING_PROVISIONED);
  g_free (assert_problem (design, "read-capacity", "at least 1"));
  g_free (assert_problem (design, "write-capacity", "at least 1"));
  g_free (assert_problem (design, "index:0:read-capacity", "gsi1"));
  dyno_table_design_set_capacity (design, 1, 0);
  assert_no_problem (design, "read-capacity");
  g_free (assert_problem (design, "write-capacity", "at least 1"));
  dyno_table_design_set_capacity (design, 1, 1);
  dyno_table_design_index_set_capacity (gsi_of (design), 2, 0);
  g_free (assert_problem (design, "index:0:write-capacity", "at least 1"));
  dyno_table_design_index_set_capacity (gsi_of (design), 2, 2);
  assert_valid (design);

  /* an LSI never takes capacity */
  dyno_table_design_index_set_capacity (lsi_of (design), 1, 1);
  g_free (assert_problem (design, "index:1:read-capacity", "table's capacity"));

  dyno_table_design_set_billing_mode (design, DYNO_BILLING_UNKNOWN);
  g_free (assert_problem (design, "billing-mode", NULL));
}

/* ---- tests: indexes -------------------------------------------------------------------- */

static void
test_index_names (void)
{
  g_autoptr(DynoTableDesign) design = valid_design ();

  dyno_table_design_index_set_name (gsi_of (design), "g");
  g_free (assert_problem (design, "index:0:name", "3 to 255"));
  dyno_table_design_index_set_name (gsi_of (design), "g s i");
  g_free (assert_problem (design, "index:0:name", "only letters"));
  dyno_table_design_index_set_name (gsi_of (design), NULL);
  g_free (assert_problem (design, "index:0:name", "Enter"));
  /* one namespace for GSIs and LSIs: the later one is marked */
  dyno_table_design_index_set_name (gsi_of (design), "by-date");
  g_free (assert_problem (design, "index:1:name", "share one set of names"));
  assert_no_problem (design, "index:0:name");
  dyno_table_design_index_set_name (gsi_of (design), "by-status");
  assert_valid (design);
}

static void
test_gsi_needs_partition_key (void)
{
  g_autoptr(DynoTableDesign) design = valid_design ();

  dyno_table_design_index_set_partition_key (gsi_of (design), "", DYNO_VALUE_S);
  g_free (assert_problem (design, "index:0:partition-key-name", "Enter"));
  /* a GSI without a sort key is fine */
  dyno_table_design_index_set_partition_key (gsi_of (design), "gsi1pk", DYNO_VALUE_S);
  dyno_table_design_index_set_sort_key (gsi_of (design), NULL, DYNO_VALUE_S);
  assert_valid (design);
}

static void
test_lsi_rules (void)
{
  g_autoptr(DynoTableDesign) design = valid_design ();

  /* needs a table sort key */
  dyno_table_design_set_sort_key (design, NULL, DYNO_VALUE_S);
  g_free (assert_problem (design, "index:1:type", "sort key"));
  dyno_table_design_set_sort_key (design, "sk", DYNO_VALUE_S);
  assert_valid (design);

  /* the table's partition key */
  dyno_table_design_index_set_partition_key (lsi_of (design), "other", DYNO_VALUE_S);
  g_free (assert_problem (design, "index:1:partition-key-name", "“pk”"));
  dyno_table_design_index_set_partition_key (lsi_of (design), NULL, DYNO_VALUE_S);
  assert_valid (design);

  /* a sort key, other than the table's */
  dyno_table_design_index_set_sort_key (lsi_of (design), NULL, DYNO_VALUE_S);
  g_free (assert_problem (design, "index:1:sort-key-name", "needs a sort key"));
  dyno_table_design_index_set_sort_key (lsi_of (design), "sk", DYNO_VALUE_S);
  g_free (assert_problem (design, "index:1:sort-key-name", "other than the table's"));
  dyno_table_design_index_set_sort_key (lsi_of (design), "created", DYNO_VALUE_S);
  assert_valid (design);
}

static void
test_index_counts (void)
{
  g_autoptr(DynoTableDesign) design = valid_design ();

  /* 1 GSI + 1 LSI; up to 20 GSIs and 5 LSIs */
  for (guint i = 0; i < 19; i++)
    {
      DynoIndexDesign *gsi = dyno_table_design_get_index (design,
                                                          dyno_table_design_add_index (design,
                                                                                       TRUE));
      g_autofree char *name = g_strdup_printf ("gsi-extra-%u", i);

      dyno_table_design_index_set_name (gsi, name);
      dyno_table_design_index_set_partition_key (gsi, "gsi1pk", DYNO_VALUE_S);
    }
  for (guint i = 0; i < 4; i++)
    {
      DynoIndexDesign *lsi = dyno_table_design_get_index (design,
                                                          dyno_table_design_add_index (design,
                                                                                       FALSE));
      g_autofree char *name = g_strdup_printf ("lsi-extra-%u", i);

      dyno_table_design_index_set_name (lsi, name);
      dyno_table_design_index_set_sort_key (lsi, "created", DYNO_VALUE_S);
    }
  assert_valid (design);

  {
    guint at = dyno_table_design_add_index (design, TRUE);
    DynoIndexDesign *gsi = dyno_table_design_get_index (design, at);

    dyno_table_design_index_set_name (gsi, "gsi-21");
    dyno_table_design_index_set_partition_key (gsi, "gsi1pk", DYNO_VALUE_S);
    g_free (assert_problem (design, "indexes", "at most 20 global"));
    dyno_table_design_remove_index (design, at);
    assert_valid (design);
  }
  {
    guint at = dyno_table_design_add_index (design, FALSE);
    DynoIndexDesign *lsi = dyno_table_design_get_index (design, at);

    dyno_table_design_index_set_name (lsi, "lsi-6");
    dyno_table_design_index_set_sort_key (lsi, "created", DYNO_VALUE_S);
    g_free (assert_problem (design, "indexes", "at most 5 local"));
  }
}

static void
test_projection (void)
{
  g_autoptr(DynoTableDesign) design = valid_design ();
  DynoIndexDesign *gsi = gsi_of (design);
  const char *none[] = { NULL };
  const char *with_key[] = { "total", "sk", NULL };
  const char *with_index_key[] = { "gsi1sk", NULL };
  const char *dup[] = { "total", "status", "total", NULL };
  const char *attrs[] = { "a", NULL };

  /* INCLUDE needs attributes */
  dyno_table_design_index_set_non_key_attributes (gsi, none);
  g_free (assert_problem (design, "index:0:projection-attributes", "at least one"));
  /* attributes only with INCLUDE */
  dyno_table_design_index_set_non_key_attributes (lsi_of (design), attrs);
  g_free (assert_problem (design, "index:1:projection-attributes", "KEYS_ONLY"));
  dyno_table_design_index_set_projection (lsi_of (design), DYNO_PROJECTION_ALL);
  g_free (assert_problem (design, "index:1:projection-attributes", "ALL"));
  dyno_table_design_index_set_projection (lsi_of (design), DYNO_PROJECTION_INCLUDE);
  dyno_table_design_index_set_non_key_attributes (gsi, attrs);
  assert_valid (design);

  /* no key attributes (table's or the index's own) */
  dyno_table_design_index_set_non_key_attributes (gsi, with_key);
  g_free (assert_problem (design, "index:0:projection-attributes", "“sk” is a key attribute"));
  dyno_table_design_index_set_non_key_attributes (gsi, with_index_key);
  g_free (assert_problem (design, "index:0:projection-attributes", "“gsi1sk”"));
  /* no duplicates */
  dyno_table_design_index_set_non_key_attributes (gsi, dup);
  g_free (assert_problem (design, "index:0:projection-attributes", "“total” is listed twice"));
  /* no empty names */
  dyno_table_design_index_set_non_key_attributes_text (gsi, "total, ,status");
  g_free (assert_problem (design, "index:0:projection-attributes", "2 is empty"));
  dyno_table_design_index_set_non_key_attributes_text (gsi, " total ,status,");
  assert_valid (design);
  g_assert_cmpuint (gsi->non_key_attributes->len, ==, 2);
  g_assert_cmpstr (g_ptr_array_index (gsi->non_key_attributes, 0), ==, "total");
}

static void
test_projection_limits (void)
{
  g_autoptr(DynoTableDesign) design = valid_design ();
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) twenty = NULL;
  g_auto(GStrv) twenty_one = NULL;

  for (guint i = 0; i < 20; i++)
    {
      g_autofree char *name = g_strdup_printf ("attr%02u", i);
      g_strv_builder_add (builder, name);
    }
  twenty = g_strv_builder_end (builder);
  g_strv_builder_add_many (builder, "attr00", "attr01", "attr02", "attr03", "attr04",
                           "attr05", "attr06", "attr07", "attr08", "attr09", "attr10",
                           "attr11", "attr12", "attr13", "attr14", "attr15", "attr16",
                           "attr17", "attr18", "attr19", "attr20", NULL);
  twenty_one = g_strv_builder_end (builder);

  /* 20 per index */
  dyno_table_design_index_set_non_key_attributes (gsi_of (design),
                                                  (const char * const *) twenty);
  assert_valid (design);
  dyno_table_design_index_set_non_key_attributes (gsi_of (design),
                                                  (const char * const *) twenty_one);
  g_free (assert_problem (design, "index:0:projection-attributes", "at most 20"));
  dyno_table_design_index_set_non_key_attributes (gsi_of (design),
                                                  (const char * const *) twenty);

  /* 100 over all indexes, the same attribute counted once per index: 5 × 20 = 100 is fine,
   * the sixth index with 20 goes over */
  dyno_table_design_index_set_projection (lsi_of (design), DYNO_PROJECTION_INCLUDE);
  dyno_table_design_index_set_non_key_attributes (lsi_of (design),
                                                  (const char * const *) twenty);
  for (guint i = 0; i < 3; i++)
    {
      DynoIndexDesign *gsi = dyno_table_design_get_index (design,
                                                          dyno_table_design_add_index (design,
                                                                                       TRUE));
      g_autofree char *name = g_strdup_printf ("more-%u", i);

      dyno_table_design_index_set_name (gsi, name);
      dyno_table_design_index_set_partition_key (gsi, "gsi1pk", DYNO_VALUE_S);
      dyno_table_design_index_set_projection (gsi, DYNO_PROJECTION_INCLUDE);
      dyno_table_design_index_set_non_key_attributes (gsi, (const char * const *) twenty);
    }
  assert_valid (design);
  {
    DynoIndexDesign *gsi = dyno_table_design_get_index (design,
                                                        dyno_table_design_add_index (design,
                                                                                     TRUE));
    const char *one[] = { "attr00", NULL };

    dyno_table_design_index_set_name (gsi, "one-too-many");
    dyno_table_design_index_set_partition_key (gsi, "gsi1pk", DYNO_VALUE_S);
    dyno_table_design_index_set_projection (gsi, DYNO_PROJECTION_INCLUDE);
    dyno_table_design_index_set_non_key_attributes (gsi, one);
    g_free (assert_problem (design, "index:5:projection-attributes", "101"));
    /* reported once, where the total goes over */
    assert_no_problem (design, "index:4:projection-attributes");
  }
}

/* ---- tests: requests ------------------------------------------------------------------- */

static void
test_create_table_json (void)
{
  g_autoptr(DynoTableDesign) design = valid_design ();
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(JsonNode) defs = NULL;
  g_autoptr(JsonObject) gsi = NULL;
  g_autoptr(JsonObject) lsi_key = NULL;
  g_autofree char *billing = NULL;
  g_autofree char *gsi1sk_type = NULL;

  node = dyno_table_design_to_create_table_json (design);
  billing = string_at (node, "$.BillingMode");
  g_assert_cmpstr (billing, ==, "PAY_PER_REQUEST");
  g_assert_false (json_object_has_member (json_node_get_object (node), "ProvisionedThroughput"));

  /* one definition per key attribute, with its type */
  defs = json_path_query ("$.AttributeDefinitions[*].AttributeName", node, NULL);
  g_assert_cmpuint (json_array_get_length (json_node_get_array (defs)), ==, 5);
  {
    JsonArray *list = json_object_get_array_member (json_node_get_object (node),
                                                    "AttributeDefinitions");

    for (guint i = 0; i < json_array_get_length (list); i++)
      {
        JsonObject *def = json_array_get_object_element (list, i);

        if (g_str_equal (json_object_get_string_member (def, "AttributeName"), "gsi1sk"))
          gsi1sk_type = g_strdup (json_object_get_string_member (def, "AttributeType"));
      }
  }
  g_assert_cmpstr (gsi1sk_type, ==, "N");

  gsi = object_at (node, "$.GlobalSecondaryIndexes[0]");
  g_assert_cmpstr (json_object_get_string_member (gsi, "IndexName"), ==, "gsi1");
  g_assert_false (json_object_has_member (gsi, "ProvisionedThroughput"));
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (gsi,
                                                                                 "Projection"),
                                                  "ProjectionType"), ==, "INCLUDE");
  /* the LSI's partition key is the table's */
  lsi_key = object_at (node, "$.LocalSecondaryIndexes[0].KeySchema[0]");
  g_assert_cmpstr (json_object_get_string_member (lsi_key, "AttributeName"), ==, "pk");
  g_assert_cmpstr (json_object_get_string_member (lsi_key, "KeyType"), ==, "HASH");

  /* provisioned: table and GSI carry their capacity, the LSI none */
  dyno_table_design_set_billing_mode (design, DYNO_BILLING_PROVISIONED);
  dyno_table_design_set_capacity (design, 5, 6);
  dyno_table_design_index_set_capacity (gsi_of (design), 7, 8);
  g_clear_pointer (&node, json_node_unref);
  node = dyno_table_design_to_create_table_json (design);
  {
    g_autoptr(JsonObject) t = object_at (node, "$.ProvisionedThroughput");
    g_autoptr(JsonObject) g = object_at (node, "$.GlobalSecondaryIndexes[0]"
                                               ".ProvisionedThroughput");
    g_autoptr(JsonObject) l = object_at (node, "$.LocalSecondaryIndexes[0]");

    g_assert_cmpint (json_object_get_int_member (t, "ReadCapacityUnits"), ==, 5);
    g_assert_cmpint (json_object_get_int_member (t, "WriteCapacityUnits"), ==, 6);
    g_assert_cmpint (json_object_get_int_member (g, "ReadCapacityUnits"), ==, 7);
    g_assert_cmpint (json_object_get_int_member (g, "WriteCapacityUnits"), ==, 8);
    g_assert_false (json_object_has_member (l, "ProvisionedThroughput"));
  }
}

static void
test_json_round_trip (void)
{
  g_autoptr(DynoTableDesign) design = valid_design ();
  g_autofree char *text = NULL;
  g_autofree char *again = NULL;
  g_autoptr(DynoTableDesign) copy = NULL;
  g_autoptr(GError) error = NULL;

  dyno_table_design_set_billing_mode (design, DYNO_BILLING_PROVISIONED);
  dyno_table_design_set_capacity (design, 5, 6);
  dyno_table_design_index_set_capacity (gsi_of (design), 7, 8);
  text = dyno_table_design_to_json_text (design);
  copy = dyno_table_design_new_from_json (text, -1, &error);
  g_assert_no_error (error);
  assert_valid (copy);
  again = dyno_table_design_to_json_text (copy);
  g_assert_cmpstr (text, ==, again);
}

static void
test_samples (void)
{
  const char *names[] = { "audit-log", "file-tree", "sensors", "tenant" };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *path = g_build_filename (g_getenv ("DYNO_SOURCE_ROOT")
                                                ? g_getenv ("DYNO_SOURCE_ROOT")
                                                : TEST_SRCDIR "/..",
                                                "data", "samples", names[i], "table.json",
                                                NULL);
      g_autofree char *contents = NULL;
      g_autoptr(GError) error = NULL;
      g_autoptr(DynoTableDesign) design = NULL;

      if (!g_file_get_contents (path, &contents, NULL, &error))
        {
          g_test_skip (error->message);
          return;
        }
      design = dyno_table_design_new_from_json (contents, -1, &error);
      g_assert_no_error (error);
      g_assert_cmpstr (dyno_table_design_get_table_name (design), ==, names[i]);
      g_assert_cmpint (dyno_table_design_get_billing_mode (design), ==,
                       DYNO_BILLING_PAY_PER_REQUEST);
      g_assert_nonnull (dyno_table_design_get_sort_key_name (design));
      assert_valid (design);
      if (g_str_equal (names[i], "tenant"))
        {
          DynoIndexDesign *gsi;

          g_assert_cmpuint (dyno_table_design_get_n_indexes (design), ==, 1);
          gsi = dyno_table_design_get_index (design, 0);
          g_assert_true (gsi->global);
          g_assert_cmpstr (gsi->partition_key_name, ==, "gsi1pk");
          g_assert_cmpstr (gsi->sort_key_name, ==, "gsi1sk");
        }
    }
}

static void
test_from_json_errors (void)
{
  const struct {
    const char *json;
    const char *fragment;
  } bad[] = {
    { "[]", "object" },
    { "{\"TableName\":\"t\"}", "KeySchema is missing" },
    { "{\"TableName\":\"tab\",\"AttributeDefinitions\":[{\"AttributeName\":\"k\","
      "\"AttributeType\":\"X\"}],\"KeySchema\":[{\"AttributeName\":\"k\",\"KeyType\":\"HASH\"}]}",
      "not a DynamoDB type" },
    { "{\"TableName\":\"tab\",\"AttributeDefinitions\":[{\"AttributeName\":\"k\","
      "\"AttributeType\":\"S\"}],\"KeySchema\":[{\"AttributeName\":\"k\",\"KeyType\":\"RANGE\"}]}",
      "HASH" },
    { "{\"TableName\":\"tab\",\"BillingMode\":\"PROVISIONED\",\"ProvisionedThroughput\":"
      "{\"ReadCapacityUnits\":1.5,\"WriteCapacityUnits\":1},\"AttributeDefinitions\":"
      "[{\"AttributeName\":\"k\",\"AttributeType\":\"S\"}],\"KeySchema\":[{\"AttributeName\":"
      "\"k\",\"KeyType\":\"HASH\"}]}", "whole number" },
    { "{\"TableName\":", "not valid JSON" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(DynoTableDesign) design = dyno_table_design_new_from_json (bad[i].json, -1,
                                                                           &error);

      g_assert_null (design);
      g_assert_nonnull (error);
      g_assert_nonnull (strstr (error->message, bad[i].fragment));
    }
}

static void
test_from_json_definitions (void)
{
  const char *base = "{\"TableName\":\"tab\",\"BillingMode\":\"PAY_PER_REQUEST\","
                     "\"AttributeDefinitions\":[%s],\"KeySchema\":[{\"AttributeName\":\"k\","
                     "\"KeyType\":\"HASH\"}]}";
  const struct {
    const char *defs;
    const char *fragment;   /* NULL: valid */
  } cases[] = {
    { "{\"AttributeName\":\"k\",\"AttributeType\":\"S\"}", NULL },
    { "{\"AttributeName\":\"k\",\"AttributeType\":\"S\"},"
      "{\"AttributeName\":\"x\",\"AttributeType\":\"S\"}", "no key schema uses" },
    { "", "not defined" },
    { "{\"AttributeName\":\"k\",\"AttributeType\":\"S\"},"
      "{\"AttributeName\":\"k\",\"AttributeType\":\"N\"}", "twice" },
    { "{\"AttributeName\":\"k\",\"AttributeType\":\"BOOL\"}", NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *json = g_strdup_printf (base, cases[i].defs);
      g_autoptr(GError) error = NULL;
      g_autoptr(DynoTableDesign) design = dyno_table_design_new_from_json (json, -1, &error);

      g_assert_no_error (error);
      if (i == 4)
        g_free (assert_problem (design, "partition-key-type", "BOOL"));
      else if (cases[i].fragment == NULL)
        assert_valid (design);
      else
        g_free (assert_problem (design, "attribute-definitions", cases[i].fragment));
    }
}

/* ---- tests: a GSI on an existing table ------------------------------------------------- */

static DynoTableInfo *
existing_table (DynoBillingMode billing)
{
  g_autofree char *json = g_strdup_printf (
    "{\"Table\":{\"TableName\":\"tenant\",\"TableStatus\":\"ACTIVE\","
    "\"AttributeDefinitions\":[{\"AttributeName\":\"pk\",\"AttributeType\":\"S\"},"
    "{\"AttributeName\":\"sk\",\"AttributeType\":\"S\"},"
    "{\"AttributeName\":\"gsi1pk\",\"AttributeType\":\"N\"}],"
    "\"KeySchema\":[{\"AttributeName\":\"pk\",\"KeyType\":\"HASH\"},"
    "{\"AttributeName\":\"sk\",\"KeyType\":\"RANGE\"}],"
    "%s"
    "\"GlobalSecondaryIndexes\":[{\"IndexName\":\"gsi1\",\"KeySchema\":[{\"AttributeName\":"
    "\"gsi1pk\",\"KeyType\":\"HASH\"}],\"Projection\":{\"ProjectionType\":\"INCLUDE\","
    "\"NonKeyAttributes\":[\"a\",\"b\"]},\"IndexStatus\":\"ACTIVE\"}]}}",
    billing == DYNO_BILLING_PROVISIONED
    ? "\"ProvisionedThroughput\":{\"ReadCapacityUnits\":5,\"WriteCapacityUnits\":5},"
    : "\"BillingModeSummary\":{\"BillingMode\":\"PAY_PER_REQUEST\"},"
      "\"ProvisionedThroughput\":{\"ReadCapacityUnits\":0,\"WriteCapacityUnits\":0},");
  g_autoptr(GError) error = NULL;
  DynoTableInfo *info = dyno_table_info_new_from_json (json, -1, &error);

  g_assert_no_error (error);
  return info;
}

static void
test_add_index (void)
{
  g_autoptr(DynoTableInfo) table = existing_table (DYNO_BILLING_PAY_PER_REQUEST);
  g_autoptr(DynoTableDesign) design = dyno_table_design_new_for_index (table);
  DynoIndexDesign *gsi = dyno_table_design_get_index (design, 0);
  g_autoptr(JsonNode) node = NULL;
  g_autofree char *op_name = NULL;
  g_autofree char *table_name = NULL;
  g_autoptr(JsonNode) defs = NULL;

  g_assert_true (gsi->global);
  g_assert_cmpuint (dyno_table_design_get_n_indexes (design), ==, 1);
  dyno_table_design_index_set_name (gsi, "by-status");
  dyno_table_design_index_set_partition_key (gsi, "status", DYNO_VALUE_S);
  dyno_table_design_index_set_sort_key (gsi, "sk", DYNO_VALUE_S);
  assert_valid (design);

  /* name clash with an existing index */
  dyno_table_design_index_set_name (gsi, "gsi1");
  g_free (assert_problem (design, "index:0:name", "already has an index"));
  dyno_table_design_index_set_name (gsi, "by-status");
  /* type clash with the table's attribute definitions */
  dyno_table_design_index_set_partition_key (gsi, "gsi1pk", DYNO_VALUE_S);
  g_free (assert_problem (design, "index:0:partition-key-type", "Number (N)"));
  dyno_table_design_index_set_partition_key (gsi, "gsi1pk", DYNO_VALUE_N);
  assert_valid (design);
  /* an on-demand table: no capacity */
  dyno_table_design_index_set_capacity (gsi, 1, 1);
  g_free (assert_problem (design, "index:0:read-capacity", "On-demand"));
  dyno_table_design_index_set_capacity (gsi, -1, -1);
  /* only a GSI */
  dyno_table_design_index_set_global (gsi, FALSE);
  g_free (assert_problem (design, "index:0:type", "Only global"));
  dyno_table_design_index_set_global (gsi, TRUE);

  node = dyno_table_design_to_update_table_json (design);
  table_name = string_at (node, "$.TableName");
  g_assert_cmpstr (table_name, ==, "tenant");
  op_name = string_at (node, "$.GlobalSecondaryIndexUpdates[0].Create.IndexName");
  g_assert_cmpstr (op_name, ==, "by-status");
  /* AttributeDefinitions: the new index's keys */
  defs = json_path_query ("$.AttributeDefinitions[*].AttributeName", node, NULL);
  g_assert_cmpuint (json_array_get_length (json_node_get_array (defs)), ==, 2);
  g_assert_false (json_object_has_member (json_node_get_object (node), "KeySchema"));
}

static void
test_add_index_provisioned (void)
{
  g_autoptr(DynoTableInfo) table = existing_table (DYNO_BILLING_PROVISIONED);
  g_autoptr(DynoTableDesign) design = dyno_table_design_new_for_index (table);
  DynoIndexDesign *gsi = dyno_table_design_get_index (design, 0);
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(JsonObject) throughput = NULL;
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) many = NULL;

  dyno_table_design_index_set_name (gsi, "by-status");
  dyno_table_design_index_set_partition_key (gsi, "status", DYNO_VALUE_S);
  g_free (assert_problem (design, "index:0:read-capacity", "at least 1"));
  dyno_table_design_index_set_capacity (gsi, 3, 4);
  assert_valid (design);
  node = dyno_table_design_to_update_table_json (design);
  throughput = object_at (node, "$.GlobalSecondaryIndexUpdates[0].Create"
                                ".ProvisionedThroughput");
  g_assert_cmpint (json_object_get_int_member (throughput, "ReadCapacityUnits"), ==, 3);

  /* the existing index's 2 projected attributes count toward the 100 */
  for (guint i = 0; i < 20; i++)
    {
      g_autofree char *name = g_strdup_printf ("n%u", i);
      g_strv_builder_add (builder, name);
    }
  many = g_strv_builder_end (builder);
  dyno_table_design_index_set_projection (gsi, DYNO_PROJECTION_INCLUDE);
  dyno_table_design_index_set_non_key_attributes (gsi, (const char * const *) many);
  assert_valid (design);
}

static void
test_matches (void)
{
  g_autoptr(DynoTableDesign) design = valid_design ();
  g_autofree char *json = NULL;
  g_autoptr(DynoTableInfo) info = NULL;
  g_autofree char *difference = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = dyno_table_design_to_create_table_json (design);
  JsonObject *obj = json_node_get_object (node);

  /* A DescribeTable result is the CreateTable request plus status fields. */
  json_object_set_string_member (obj, "TableStatus", "ACTIVE");
  json_object_set_object_member (obj, "BillingModeSummary", json_object_new ());
  json_object_set_string_member (json_object_get_object_member (obj, "BillingModeSummary"),
                                 "BillingMode", "PAY_PER_REQUEST");
  json = json_to_string (node, FALSE);
  info = dyno_table_info_new_from_json (json, -1, &error);
  g_assert_no_error (error);
  g_assert_true (dyno_table_design_matches (design, info, &difference));

  dyno_table_design_index_set_sort_key (lsi_of (design), "created", DYNO_VALUE_N);
  g_assert_false (dyno_table_design_matches (design, info, &difference));
  g_assert_nonnull (strstr (difference, "by-date"));
}

/* ---- the headless validator ------------------------------------------------------------ */

static void
add_verdict (JsonBuilder     *out,
             DynoTableDesign *design,
             const GError    *error)
{
  json_builder_begin_object (out);
  if (error != NULL)
    {
      json_builder_set_member_name (out, "valid");
      json_builder_add_boolean_value (out, FALSE);
      json_builder_set_member_name (out, "error");
      json_builder_add_string_value (out, error->message);
    }
  else
    {
      g_autoptr(GPtrArray) problems = dyno_table_design_validate (design);

      json_builder_set_member_name (out, "valid");
      json_builder_add_boolean_value (out, problems->len == 0);
      json_builder_set_member_name (out, "problems");
      json_builder_begin_array (out);
      for (guint i = 0; i < problems->len; i++)
        {
          DynoDesignProblem *p = g_ptr_array_index (problems, i);

          json_builder_begin_object (out);
          json_builder_set_member_name (out, "field");
          json_builder_add_string_value (out, p->field);
          json_builder_set_member_name (out, "message");
          json_builder_add_string_value (out, p->message);
          json_builder_end_object (out);
        }
      json_builder_end_array (out);
      json_builder_set_member_name (out, "request");
      json_builder_add_value (out, dyno_table_design_get_existing_table (design)
                                   ? dyno_table_design_to_update_table_json (design)
                                   : dyno_table_design_to_create_table_json (design));
    }
  json_builder_end_object (out);
}

static JsonNode *
load_json (const char *path)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  if (!json_parser_load_from_file (parser, path, &error))
    {
      g_printerr ("%s: %s\n", path, error->message);
      exit (2);
    }
  return json_node_copy (json_parser_get_root (parser));
}

static void
print_builder (JsonBuilder *out)
{
  g_autoptr(JsonNode) root = json_builder_get_root (out);
  g_autofree char *text = json_to_string (root, TRUE);

  g_print ("%s\n", text);
}

static int
run_validate (const char *path)
{
  g_autoptr(JsonNode) root = load_json (path);
  g_autoptr(JsonBuilder) out = json_builder_new ();
  g_autoptr(JsonArray) list = NULL;

  if (JSON_NODE_HOLDS_ARRAY (root))
    list = json_array_ref (json_node_get_array (root));
  else
    {
      list = json_array_new ();
      json_array_add_element (list, json_node_copy (root));
    }

  json_builder_begin_array (out);
  for (guint i = 0; i < json_array_get_length (list); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(DynoTableDesign) design =
        dyno_table_design_new_from_node (json_array_get_element (list, i), &error);

      add_verdict (out, design, error);
    }
  json_builder_end_array (out);
  print_builder (out);
  return 0;
}

/* One {"AttributeDefinitions": […], "Create": {GSI}} on top of @table. */
static DynoTableDesign *
index_design_from_node (DynoTableInfo  *table,
                        JsonNode       *node,
                        GError        **error)
{
  g_autoptr(JsonNode) create = NULL;
  g_autoptr(DynoTableDesign) parsed = NULL;
  g_autoptr(DynoTableDesign) design = NULL;
  JsonObject *obj, *request;
  const DynoKeyAttr *pk = dyno_table_info_get_partition_key (table);
  DynoIndexDesign *from, *to;
  JsonArray *defs;

  if (!JSON_NODE_HOLDS_OBJECT (node) ||
      !json_object_has_member (json_node_get_object (node), "Create"))
    {
      g_set_error (error, DYNO_ERROR, DYNO_ERROR_INVALID_VALUE, "expected {\"Create\": …}");
      return NULL;
    }
  obj = json_node_get_object (node);

  /* Read the GSI through the CreateTable reader: a table keyed on the existing partition
   * key carrying the one GSI, with the update's definitions plus the table key's. */
  create = json_node_new (JSON_NODE_OBJECT);
  request = json_object_new ();
  json_node_take_object (create, request);
  json_object_set_string_member (request, "TableName", dyno_table_info_get_name (table));
  json_object_set_string_member (request, "BillingMode", "PAY_PER_REQUEST");
  defs = json_object_has_member (obj, "AttributeDefinitions")
         ? json_array_ref (json_object_get_array_member (obj, "AttributeDefinitions"))
         : json_array_new ();
  {
    gboolean has_pk = FALSE;

    for (guint i = 0; i < json_array_get_length (defs); i++)
      if (g_strcmp0 (json_object_get_string_member (json_array_get_object_element (defs, i),
                                                    "AttributeName"), pk->name) == 0)
        has_pk = TRUE;
    if (!has_pk)
      {
        JsonObject *def = json_object_new ();
        JsonArray *copy = json_array_new ();

        for (guint i = 0; i < json_array_get_length (defs); i++)
          json_array_add_element (copy, json_node_copy (json_array_get_element (defs, i)));
        json_object_set_string_member (def, "AttributeName", pk->name);
        json_object_set_string_member (def, "AttributeType",
                                       dyno_value_type_to_string (pk->type));
        json_array_add_object_element (copy, def);
        json_array_unref (defs);
        defs = copy;
      }
  }
  json_object_set_array_member (request, "AttributeDefinitions", defs);
  {
    JsonArray *schema = json_array_new ();
    JsonObject *hash = json_object_new ();
    JsonArray *gsis = json_array_new ();

    json_object_set_string_member (hash, "AttributeName", pk->name);
    json_object_set_string_member (hash, "KeyType", "HASH");
    json_array_add_object_element (schema, hash);
    json_object_set_array_member (request, "KeySchema", schema);
    json_array_add_element (gsis, json_node_copy (json_object_get_member (obj, "Create")));
    json_object_set_array_member (request, "GlobalSecondaryIndexes", gsis);
  }
  parsed = dyno_table_design_new_from_node (create, error);
  if (parsed == NULL)
    return NULL;

  design = dyno_table_design_new_for_index (table);
  from = dyno_table_design_get_index (parsed, 0);
  to = dyno_table_design_get_index (design, 0);
  dyno_table_design_index_set_name (to, from->name);
  dyno_table_design_index_set_partition_key (to, from->partition_key_name,
                                             from->partition_key_type);
  dyno_table_design_index_set_sort_key (to, from->sort_key_name, from->sort_key_type);
  dyno_table_design_index_set_projection (to, from->projection);
  g_ptr_array_add (from->non_key_attributes, NULL);
  dyno_table_design_index_set_non_key_attributes (to,
                                                  (const char * const *)
                                                  from->non_key_attributes->pdata);
  g_ptr_array_set_size (from->non_key_attributes, from->non_key_attributes->len - 1);
  dyno_table_design_index_set_capacity (to, from->read_capacity, from->write_capacity);
  return g_steal_pointer (&design);
}

static int
run_validate_index (const char *describe_path,
                    const char *path)
{
  g_autoptr(JsonNode) describe = load_json (describe_path);
  g_autoptr(JsonNode) root = load_json (path);
  g_autoptr(JsonBuilder) out = json_builder_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(DynoTableInfo) table = dyno_table_info_new_from_node (describe, &error);
  JsonArray *list;

  if (table == NULL || !JSON_NODE_HOLDS_ARRAY (root))
    {
      g_printerr ("%s\n", error ? error->message : "expected a JSON list");
      return 2;
    }
  list = json_node_get_array (root);
  json_builder_begin_array (out);
  for (guint i = 0; i < json_array_get_length (list); i++)
    {
      g_autoptr(GError) local_error = NULL;
      g_autoptr(DynoTableDesign) design =
        index_design_from_node (table, json_array_get_element (list, i), &local_error);

      add_verdict (out, design, local_error);
    }
  json_builder_end_array (out);
  print_builder (out);
  return 0;
}

static int
run_matches (const char *design_path,
             const char *describe_path)
{
  g_autoptr(JsonNode) design_node = load_json (design_path);
  g_autoptr(JsonNode) describe = load_json (describe_path);
  g_autoptr(GError) error = NULL;
  g_autoptr(DynoTableDesign) design = dyno_table_design_new_from_node (design_node, &error);
  g_autoptr(DynoTableInfo) info = NULL;
  g_autofree char *difference = NULL;

  if (design == NULL)
    {
      g_printerr ("%s: %s\n", design_path, error->message);
      return 2;
    }
  info = dyno_table_info_new_from_node (describe, &error);
  if (info == NULL)
    {
      g_printerr ("%s: %s\n", describe_path, error->message);
      return 2;
    }
  if (!dyno_table_design_matches (design, info, &difference))
    {
      g_printerr ("%s\n", difference);
      return 1;
    }
  return 0;
}

int
main (int    argc,
      char **argv)
{
  if (argc == 3 && strcmp (argv[1], "--validate") == 0)
    return run_validate (argv[2]);
  if (argc == 4 && strcmp (argv[1], "--validate-index") == 0)
    return run_validate_index (argv[2], argv[3]);
  if (argc == 4 && strcmp (argv[1], "--matches") == 0)
    return run_matches (argv[2], argv[3]);

  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/table-design/valid", test_valid_design);
  g_test_add_func ("/table-design/table-name", test_table_name);
  g_test_add_func ("/table-design/key-names", test_key_names);
  g_test_add_func ("/table-design/key-types", test_key_types);
  g_test_add_func ("/table-design/sort-key-differs", test_sort_key_differs_from_partition_key);
  g_test_add_func ("/table-design/one-type-per-attribute", test_one_type_per_attribute);
  g_test_add_func ("/table-design/billing", test_billing);
  g_test_add_func ("/table-design/index-names", test_index_names);
  g_test_add_func ("/table-design/gsi-partition-key", test_gsi_needs_partition_key);
  g_test_add_func ("/table-design/lsi", test_lsi_rules);
  g_test_add_func ("/table-design/index-counts", test_index_counts);
  g_test_add_func ("/table-design/projection", test_projection);
  g_test_add_func ("/table-design/projection-limits", test_projection_limits);
  g_test_add_func ("/table-design/create-table-json", test_create_table_json);
  g_test_add_func ("/table-design/json-round-trip", test_json_round_trip);
  g_test_add_func ("/table-design/samples", test_samples);
  g_test_add_func ("/table-design/from-json-errors", test_from_json_errors);
  g_test_add_func ("/table-design/from-json-definitions", test_from_json_definitions);
  g_test_add_func ("/table-design/add-index", test_add_index);
  g_test_add_func ("/table-design/add-index-provisioned", test_add_index_provisioned);
  g_test_add_func ("/table-design/matches", test_matches);

  return g_test_run ();
}
