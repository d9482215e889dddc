/* test-query-draft-partiql.c: dyno_query_draft_load_partiql(), a PartiQL SELECT read back into
 * the query builder's model
 *
 * What DynamoDB does with each statement is reasoned from its documentation (ql-reference.select:
 * an equality or IN on the partition key makes the SELECT a Query, otherwise it scans the
 * table; ORDER BY sorts by a key) and from the request rules of /work/shared/reference
 * (a Query's FilterExpression cannot name a key attribute); no server is involved.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "dyno-codegen.h"
#include "dyno-expr.h"
#include "dyno-json.h"
#include "dyno-query-draft.h"
#include "dyno-request.h"

#define UNSUPPORTED_PREFIX "Not expressible in the query builder: "

/* ---- helpers -------------------------------------------------------------------------------- */

/* Table T: PK (S) and SK (S); index gsi1: gsi1pk (S) and gsi1sk (N). */
static DynoTableInfo *
schema (void)
{
  DynoTableInfo *info = dyno_table_info_new ("T", "PK", DYNO_VALUE_S, "SK", DYNO_VALUE_S);
  DynoIndexInfo gsi = {
    .name = (char *) "gsi1", .global = TRUE,
    .partition_key = { (char *) "gsi1pk", DYNO_VALUE_S },
    .sort_key = { (char *) "gsi1sk", DYNO_VALUE_N },
    .projection = DYNO_PROJECTION_ALL, .read_capacity = -1, .write_capacity = -1,
  };

  dyno_table_info_add_index (info, &gsi);
  return info;
}

static DynoQueryDraft *
draft_new (DynoTableInfo *info)
{
  DynoQueryDraft *draft = dyno_query_draft_new ();

  if (info != NULL)
    dyno_query_draft_set_table_info (draft, info);
  return draft;
}

static DynoQueryDraft *
draft_with_schema (void)
{
  g_autoptr(DynoTableInfo) info = schema ();

  return draft_new (info);
}

/* NULL-terminated DynamoDB JSON values */
static GPtrArray *
params_new (const char *first,
            ...)
{
  GPtrArray *params = g_ptr_array_new_with_free_func ((GDestroyNotify) dyno_value_free);
  va_list ap;

  va_start (ap, first);
  for (const char *json = first; json != NULL; json = va_arg (ap, const char *))
    {
      g_autoptr(GError) error = NULL;
      DynoValue *value = dyno_value_from_ddb_json (json, -1, &error);

      g_assert_no_error (error);
      g_ptr_array_add (params, value);
    }
  va_end (ap);
  return params;
}

static void
count_cb (guint *count)
{
  (*count)++;
}

/* Loads @statement, which must succeed with one "changed". */
static void
load_ok (DynoQueryDraft *draft,
         const char     *statement,
         GPtrArray      *params)
{
  g_autoptr(GError) error = NULL;
  guint changed = 0;
  gulong id = g_signal_connect_swapped (draft, "changed", G_CALLBACK (count_cb), &changed);

  g_assert_true (dyno_query_draft_load_partiql (draft, statement, params, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (changed, ==, 1);
  g_signal_handler_disconnect (draft, id);
}

static char *
inline0 (const DynoExpr *expr)
{
  return expr != NULL ? dyno_expr_to_inline (expr) : NULL;
}

/* The draft's state, the expressions in the inline syntax. */
static void
assert_draft (DynoQueryDraft *draft,
              DynoOperation   op,
              const char     *index,
              const char     *key,
              const char     *filter,
              const char     *projection,
              DynoTristate    forward)
{
  g_autofree char *key_text = inline0 (dyno_query_draft_get_key_condition (draft));
  g_autofree char *filter_text = inline0 (dyno_query_draft_get_filter (draft));
  GPtrArray *paths = dyno_query_draft_get_projection (draft);
  g_autofree char *projection_text = paths != NULL ? dyno_projection_to_inline (paths) : NULL;

  g_assert_cmpint (dyno_query_draft_get_operation (draft), ==, op);
  g_assert_cmpstr (dyno_query_draft_get_table_name (draft), ==, "T");
  g_assert_cmpstr (dyno_query_draft_get_index_name (draft), ==, index);
  if (op == DYNO_OP_QUERY)
    g_assert_cmpstr (key_text, ==, key);
  else
    g_assert_null (key);
  g_assert_cmpstr (filter_text, ==, filter);
  g_assert_cmpstr (projection_text, ==, projection);
  g_assert_cmpint (dyno_query_draft_get_scan_index_forward (draft), ==, forward);
}

static char *
draft_json (DynoQueryDraft *draft)
{
  return dyno_query_draft_to_json (draft, FALSE);
}

/* Loading @statement fails with @code; the message has @reason; the draft is unchanged. */
static void
assert_refused (DynoQueryDraft *draft,
                const char     *statement,
                GPtrArray      *params,
                DynoErrorCode   code,
                const char     *reason)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *before = draft_json (draft);
  g_autofree char *after = NULL;
  guint changed = 0;
  gulong id = g_signal_connect_swapped (draft, "changed", G_CALLBACK (count_cb), &changed);

  g_assert_false (dyno_query_draft_load_partiql (draft, statement, params, &error));
  g_assert_error (error, DYNO_ERROR, (gint) code);
  if (code == DYNO_ERROR_UNSUPPORTED)
    g_assert_true (g_str_has_prefix (error->message, UNSUPPORTED_PREFIX));
  if (strstr (error->message, reason) == NULL)
    g_error ("“%s”: “%s” does not say “%s”", statement, error->message, reason);
  g_assert_cmpuint (changed, ==, 0);
  after = draft_json (draft);
  g_assert_cmpstr (after, ==, before);
  g_signal_handler_disconnect (draft, id);
}

/* ---- Query: the key condition --------------------------------------------------------------- */

static void
test_query_partition_key (void)
{
  g_autoptr(DynoQueryDraft) draft = draft_with_schema ();

  load_ok (draft, "SELECT * FROM \"T\" WHERE \"PK\" = 'USER#1'", NULL);
  assert_draft (draft, DYNO_OP_QUERY, NULL, "PK = \"USER#1\"", NULL, NULL,
                DYNO_TRISTATE_UNSET);
  /* the form shows it by parts */
  g_assert_true (dyno_query_draft_get_key_condition_structured (draft));
  g_assert_cmpstr (dyno_query_draft_get_partition_key_text (draft), ==, "USER#1");
  g_assert_cmpint (dyno_query_draft_get_sort_key_operator (draft), ==, DYNO_SORT_KEY_NONE);

  /* bare names, lower-case keywords, the value on the left, a ; at the end */
  load_ok (draft, "select * from T where 'USER#2' = PK;", NULL);
  assert_draft (draft, DYNO_OP_QUERY, NULL, "PK = \"USER#2\"", NULL, NULL,
                DYNO_TRISTATE_UNSET);

  /* IN with one value is that equality: one Query */
  load_ok (draft, "SELECT * FROM \"T\" WHERE \"PK\" IN ['USER#3']", NULL);
  assert_draft (draft, DYNO_OP_QUERY, NULL, "PK = \"USER#3\"", NULL, NULL,
                DYNO_TRISTATE_UNSET);
  load_ok (draft, "SELECT * FROM \"T\" WHERE \"PK\" IN ('USER#4') AND \"SK\" > 'a'", NULL);
  assert_draft (draft, DYNO_OP_QUERY, NULL, "PK = \"USER#4\" AND SK > \"a\"", NULL, NULL,
                DYNO_TRISTATE_UNSET);
}

static void
test_query_sort_key_operators (void)
{
  static const struct {
    const char          *where;
    const char          *key;
    DynoSortKeyOperator  op;
    const char          *text;
    const char          *text2;
  } cases[] = {
    { "\"SK\" = 'b'", "PK = \"a\" AND SK = \"b\"", DYNO_SORT_KEY_EQ, "b", "" },
    { "\"SK\" < 'b'", "PK = \"a\" AND SK < \"b\"", DYNO_SORT_KEY_LT, "b", "" },
    { "\"SK\" <= 'b'", "PK = \"a\" AND SK <= \"b\"", DYNO_SORT_KEY_LE, "b", "" },
    { "\"SK\" > 'b'", "PK = \"a\" AND SK > \"b\"", DYNO_SORT_KEY_GT, "b", "" },
    { "\"SK\" >= 'b'", "PK = \"a\" AND SK >= \"b\"", DYNO_SORT_KEY_GE, "b", "" },
    /* the value on the left: read the other way round */
    { "'b' < \"SK\"", "PK = \"a\" AND SK > \"b\"", DYNO_SORT_KEY_GT, "b", "" },
    { "'b' >= SK", "PK = \"a\" AND SK <= \"b\"", DYNO_SORT_KEY_LE, "b", "" },
    { "\"SK\" BETWEEN 'b' AND 'm'", "PK = \"a\" AND SK BETWEEN \"b\" AND \"m\"",
      DYNO_SORT_KEY_BETWEEN, "b", "m" },
    { "begins_with(\"SK\", 'ORDER#')", "PK = \"a\" AND begins_with(SK, \"ORDER#\")",
      DYNO_SORT_KEY_BEGINS_WITH, "ORDER#", "" },
    /* the two bounds of a range, in either order, are the BETWEEN they say */
    { "\"SK\" >= 'b' AND \"SK\" <= 'm'", "PK = \"a\" AND SK BETWEEN \"b\" AND \"m\"",
      DYNO_SORT_KEY_BETWEEN, "b", "m" },
    { "\"SK\" <= 'm' AND 'b' <= \"SK\"", "PK = \"a\" AND SK BETWEEN \"b\" AND \"m\"",
      DYNO_SORT_KEY_BETWEEN, "b", "m" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(DynoQueryDraft) draft = draft_with_schema ();
      g_autofree char *statement = g_strdup_printf ("SELECT * FROM \"T\" WHERE \"PK\" = 'a' "
                                                    "AND %s", cases[i].where);

      load_ok (draft, statement, NULL);
      assert_draft (draft, DYNO_OP_QUERY, NULL, cases[i].key, NULL, NULL, DYNO_TRISTATE_UNSET);
      g_assert_true (dyno_query_draft_get_key_condition_structured (draft));
      g_assert_cmpint (dyno_query_draft_get_sort_key_operator (draft), ==, cases[i].op);
      g_assert_cmpstr (dyno_query_draft_get_sort_key_text (draft), ==, cases[i].text);
      g_assert_cmpstr (dyno_query_draft_get_sort_key_text2 (draft), ==, cases[i].text2);
    }

  /* the sort key first, the partition key after it, inside parentheses */
  {
    g_autoptr(DynoQueryDraft) draft = draft_with_schema ();

    load_ok (draft, "SELECT * FROM \"T\" WHERE (\"SK\" > 'b' AND (\"PK\" = 'a'))", NULL);
    assert_draft (draft, DYNO_OP_QUERY, NULL, "PK = \"a\" AND SK > \"b\"", NULL, NULL,
                  DYNO_TRISTATE_UNSET);
  }
}

/* ---- Query: the filter ---------------------------------------------------------------------- */

static void
test_query_filter (void)
{
  g_autoptr(DynoQueryDraft) draft = draft_with_schema ();
  g_autoptr(DynoRequest) request = NULL;
  g_autofree char *json = NULL;

  /* every term that is not the key's is the filter, in its order; "status" is a reserved
   * word of DynamoDB's expressions and the request aliases it */
  load_ok (draft,
           "SELECT * FROM \"T\" WHERE \"status\" = 'open' AND \"PK\" = 'a' "
           "AND \"address\".\"city\" = 'Paris' AND \"SK\" > 'b' AND \"tags\"[0] <> 'x' "
           "AND (\"n\" < 3 OR \"n\" IS MISSING)",
           NULL);
  assert_draft (draft, DYNO_OP_QUERY, NULL, "PK = \"a\" AND SK > \"b\"",
                "status = \"open\" AND address.city = \"Paris\" AND tags[0] <> \"x\" AND "
                "(n < 3 OR attribute_not_exists(n))",
                NULL, DYNO_TRISTATE_UNSET);
  request = dyno_query_draft_to_request (draft);
  json = dyno_request_to_json (request, FALSE);
  g_assert_nonnull (strstr (json, "\"FilterExpression\":\"#status = :status AND "));
  g_assert_nonnull (strstr (json, "\"#status\":\"status\""));

  /* a map key in brackets is a path element; IS <type> is attribute_type; literals keep their
   * types (N, BOOL, NULL, L, M, SS) */
  load_ok (draft,
           "SELECT * FROM \"T\" WHERE \"PK\" = 'a' AND \"m\"['k'] IS STRING "
           "AND \"price\" BETWEEN 1.5 AND 10 AND \"flag\" = true AND \"gone\" = null "
           "AND \"l\" = [1, 'x'] AND \"mm\" = {'k': 2} AND contains(\"s\", 'v') "
           "AND \"ss\" = <<'a', 'b'>> AND size(\"tags\") > 2",
           NULL);
  {
    g_autofree char *filter = inline0 (dyno_query_draft_get_filter (draft));

    g_assert_cmpstr (filter, ==,
                     "attribute_type(m.k, \"S\") AND price BETWEEN 1.5 AND 10 AND flag = true "
                     "AND gone = null AND l = :{\"L\":[{\"N\":\"1\"},{\"S\":\"x\"}]} AND "
                     "mm = :{\"M\":{\"k\":{\"N\":\"2\"}}} AND contains(s, \"v\") AND "
                     "ss = :{\"SS\":[\"a\",\"b\"]} AND size(tags) > 2");
  }

  /* the parentheses of a term that is not an AND stay; those of the AND terms go */
  load_ok (draft, "SELECT * FROM \"T\" WHERE ((\"PK\" = 'a') AND (NOT (\"x\" = 1)))", NULL);
  assert_draft (draft, DYNO_OP_QUERY, NULL, "PK = \"a\"", "NOT (x = 1)", NULL,
                DYNO_TRISTATE_UNSET);
}

/* ---- Scan ----------------------------------------------------------------------------------- */

static void
test_scan (void)
{
  g_autoptr(DynoQueryDraft) draft = draft_with_schema ();

  /* no WHERE: the whole table */
  load_ok (draft, "SELECT * FROM \"T\"", NULL);
  assert_draft (draft, DYNO_OP_SCAN, NULL, NULL, NULL, NULL, DYNO_TRISTATE_UNSET);

  /* no equality on the partition key: a Scan, the whole WHERE its filter (key attributes
   * included: a Scan's filter may name them) */
  load_ok (draft,
           "SELECT \"a\", \"status\" FROM \"T\" WHERE \"x\" > 5 OR \"y\" IS NOT MISSING", NULL);
  assert_draft (draft, DYNO_OP_SCAN, NULL, NULL, "x > 5 OR attribute_exists(y)",
                "a, status", DYNO_TRISTATE_UNSET);

  load_ok (draft, "SELECT * FROM \"T\" WHERE \"PK\" > 'a' AND \"SK\" = 'b'", NULL);
  assert_draft (draft, DYNO_OP_SCAN, NULL, NULL, "PK > \"a\" AND SK = \"b\"", NULL,
                DYNO_TRISTATE_UNSET);

  /* an OR with one side that does not pin the partition key reads the whole table */
  load_ok (draft, "SELECT * FROM \"T\" WHERE \"PK\" = 'a' OR \"x\" = 1", NULL);
  assert_draft (draft, DYNO_OP_SCAN, NULL, NULL, "PK = \"a\" OR x = 1", NULL,
                DYNO_TRISTATE_UNSET);

  /* the partition key compared with another attribute is no key condition */
  load_ok (draft, "SELECT * FROM \"T\" WHERE \"PK\" = \"other\"", NULL);
  assert_draft (draft, DYNO_OP_SCAN, NULL, NULL, "PK = other", NULL, DYNO_TRISTATE_UNSET);

  /* a nested path under the key's name is not the key */
  load_ok (draft, "SELECT * FROM \"T\" WHERE \"PK\".\"x\" = 'a'", NULL);
  assert_draft (draft, DYNO_OP_SCAN, NULL, NULL, "PK.x = \"a\"", NULL, DYNO_TRISTATE_UNSET);
}

/* Without the key schema of the table read, nothing tells the key condition apart. */
static void
test_no_schema (void)
{
  g_autoptr(DynoQueryDraft) draft = draft_new (NULL);
  g_autoptr(DynoTableInfo) other = dyno_table_info_new ("Other", "PK", DYNO_VALUE_S, NULL,
                                                        DYNO_VALUE_S);
  g_autoptr(DynoQueryDraft) wrong = draft_new (other);
  g_autoptr(DynoQueryDraft) no_index = draft_with_schema ();
  const char *statement = "SELECT * FROM \"T\" WHERE \"PK\" = 'a' AND \"SK\" > 'b'";

  load_ok (draft, statement, NULL);
  assert_draft (draft, DYNO_OP_SCAN, NULL, NULL, "PK = \"a\" AND SK > \"b\"", NULL,
                DYNO_TRISTATE_UNSET);
  load_ok (wrong, statement, NULL);
  assert_draft (wrong, DYNO_OP_SCAN, NULL, NULL, "PK = \"a\" AND SK > \"b\"", NULL,
                DYNO_TRISTATE_UNSET);
  g_assert_true (dyno_query_draft_get_table_info (wrong) == other);  /* kept */
  load_ok (no_index, "SELECT * FROM \"T\".\"nope\" WHERE \"PK\" = 'a'", NULL);
  assert_draft (no_index, DYNO_OP_SCAN, "nope", NULL, "PK = \"a\"", NULL,
                DYNO_TRISTATE_UNSET);
}

/* ---- index, order, parameters --------------------------------------------------------------- */

static void
test_index (void)
{
  g_autoptr(DynoQueryDraft) draft = draft_with_schema ();

  /* the index's keys decide; the table's keys are ordinary attributes of an index Query's
   * filter (dyno-request-validate.c checks the queried index's keys only) */
  load_ok (draft,
           "SELECT \"PK\", \"SK\" FROM \"T\".\"gsi1\" WHERE \"gsi1pk\" = 'g' "
           "AND \"gsi1sk\" >= 3 AND \"gsi1sk\" <= 9 AND \"SK\" = 'x' ORDER BY \"gsi1sk\" DESC",
           NULL);
  assert_draft (draft, DYNO_OP_QUERY, "gsi1", "gsi1pk = \"g\" AND gsi1sk BETWEEN 3 AND 9",
                "SK = \"x\"", "PK, SK", DYNO_TRISTATE_FALSE);
  g_assert_true (dyno_query_draft_get_key_condition_structured (draft));
  g_assert_cmpstr (dyno_query_draft_get_partition_key_name (draft), ==, "gsi1pk");
  g_assert_cmpstr (dyno_query_draft_get_sort_key_text2 (draft), ==, "9");
}

static void
test_order_by (void)
{
  g_autoptr(DynoQueryDraft) draft = draft_with_schema ();

  load_ok (draft, "SELECT * FROM \"T\" WHERE \"PK\" = 'a' AND begins_with(\"SK\", 'O#') "
                  "ORDER BY \"SK\" DESC", NULL);
  assert_draft (draft, DYNO_OP_QUERY, NULL, "PK = \"a\" AND begins_with(SK, \"O#\")", NULL,
                NULL, DYNO_TRISTATE_FALSE);
  /* ascending is the default order: nothing to send */
  load_ok (draft, "SELECT * FROM \"T\" WHERE \"PK\" = 'a' ORDER BY SK ASC", NULL);
  assert_draft (draft, DYNO_OP_QUERY, NULL, "PK = \"a\"", NULL, NULL, DYNO_TRISTATE_UNSET);
  load_ok (draft, "SELECT * FROM \"T\" WHERE \"PK\" = 'a' ORDER BY \"SK\" desc", NULL);
  assert_draft (draft, DYNO_OP_QUERY, NULL, "PK = \"a\"", NULL, NULL, DYNO_TRISTATE_FALSE);
}

static void
test_parameters (void)
{
  g_autoptr(DynoQueryDraft) draft = draft_with_schema ();
  g_autoptr(GPtrArray) params = params_new ("{\"S\":\"USER#1\"}", "{\"S\":\"2024-01\"}",
                                            "{\"S\":\"2024-12\"}", "{\"N\":\"42\"}",
                                            "{\"B\":\"AAEC\"}", "{\"SS\":[\"x\",\"y\"]}",
                                            NULL);
  g_autoptr(GPtrArray) key_param = params_new ("{\"S\":\"k\"}", NULL);

  load_ok (draft,
           "SELECT * FROM \"T\" WHERE \"PK\" = ? AND \"SK\" BETWEEN ? AND ? AND \"n\" > ? "
           "AND \"bin\" = ? AND \"set\" = ?", params);
  assert_draft (draft, DYNO_OP_QUERY, NULL, "PK = \"USER#1\" AND SK BETWEEN \"2024-01\" AND "
                "\"2024-12\"", "n > 42 AND bin = :{\"B\":\"AAEC\"} AND set = "
                ":{\"SS\":[\"x\",\"y\"]}", NULL, DYNO_TRISTATE_UNSET);
  g_assert_cmpstr (dyno_query_draft_get_sort_key_text2 (draft), ==, "2024-12");

  /* IN with one ? */
  load_ok (draft, "SELECT * FROM \"T\" WHERE \"PK\" IN [?]", key_param);
  assert_draft (draft, DYNO_OP_QUERY, NULL, "PK = \"k\"", NULL, NULL, DYNO_TRISTATE_UNSET);

  /* too few: the parser's own error */
  assert_refused (draft, "SELECT * FROM \"T\" WHERE \"PK\" = ? AND \"x\" = ?", key_param,
                  DYNO_ERROR_VALIDATION, "Number of parameters in request and statement "
                  "don't match.");
}

/* A key value of another type than the key's stays the key condition (DynamoDB runs the
 * statement as a Query on it, and refuses it); the draft's validation says so. */
static void
test_key_type_mismatch (void)
{
  g_autoptr(DynoQueryDraft) draft = draft_with_schema ();
  g_autoptr(GHashTable) errors = NULL;

  load_ok (draft, "SELECT * FROM \"T\" WHERE \"PK\" = 5", NULL);
  assert_draft (draft, DYNO_OP_QUERY, NULL, "PK = 5", NULL, NULL, DYNO_TRISTATE_UNSET);
  g_assert_false (dyno_query_draft_get_key_condition_structured (draft));
  errors = dyno_query_draft_dup_errors (draft);
  g_assert_cmpuint (g_hash_table_size (errors), >, 0);
}

/* The draft's other settings are replaced (table-info is kept), with one "changed". */
static void
test_replaces_state (void)
{
  g_autoptr(DynoQueryDraft) draft = draft_with_schema ();
  DynoTableInfo *info = dyno_query_draft_get_table_info (draft);

  dyno_query_draft_set_limit (draft, 5);
  dyno_query_draft_set_consistent_read (draft, DYNO_TRISTATE_TRUE);
  dyno_query_draft_set_max_items (draft, 100);
  dyno_query_draft_set_index_name (draft, "gsi1");
  load_ok (draft, "SELECT * FROM \"T\" WHERE \"PK\" = 'a'", NULL);
  g_assert_cmpint (dyno_query_draft_get_limit (draft), ==, 0);
  g_assert_cmpint (dyno_query_draft_get_consistent_read (draft), ==, DYNO_TRISTATE_UNSET);
  g_assert_cmpuint (dyno_query_draft_get_max_items (draft), ==, 0);
  g_assert_null (dyno_query_draft_get_index_name (draft));
  g_assert_true (dyno_query_draft_get_table_info (draft) == info);
}

/* ---- what the builder cannot say ------------------------------------------------------------ */

static void
test_unsupported (void)
{
  g_autoptr(DynoQueryDraft) draft = draft_with_schema ();
  g_autoptr(DynoQueryDraft) bare = draft_new (NULL);
  g_autoptr(DynoTableInfo) hash_only = dyno_table_info_new ("T", "PK", DYNO_VALUE_S, NULL,
                                                            DYNO_VALUE_S);
  g_autoptr(DynoQueryDraft) no_sort_key = draft_new (hash_only);

  /* something in the draft, to see that it stays */
  load_ok (draft, "SELECT \"a\" FROM \"T\" WHERE \"PK\" = 'keep' AND \"x\" = 1", NULL);
  dyno_query_draft_set_limit (draft, 7);

  assert_refused (draft, "INSERT INTO \"T\" VALUE {'PK': 'a', 'SK': 'b'}", NULL,
                  DYNO_ERROR_UNSUPPORTED, "only a SELECT reads into the builder");
  assert_refused (draft, "UPDATE \"T\" SET \"x\" = 1 WHERE \"PK\" = 'a' AND \"SK\" = 'b'", NULL,
                  DYNO_ERROR_UNSUPPORTED, "only a SELECT reads into the builder");
  assert_refused (draft, "DELETE FROM \"T\" WHERE \"PK\" = 'a' AND \"SK\" = 'b'", NULL,
                  DYNO_ERROR_UNSUPPORTED, "only a SELECT reads into the builder");

  /* several partition key values: PartiQL runs one Query per value */
  assert_refused (draft, "SELECT * FROM \"T\" WHERE \"PK\" IN ['a', 'b']", NULL,
                  DYNO_ERROR_UNSUPPORTED,
                  "PK IN […] with 2 values runs one Query per value, and the builder runs "
                  "one Query");
  assert_refused (draft, "SELECT * FROM \"T\" WHERE \"x\" = 1 AND \"PK\" IN ['a', 'b', 'c']",
                  NULL, DYNO_ERROR_UNSUPPORTED, "PK IN […] with 3 values");
  assert_refused (draft, "SELECT * FROM \"T\" WHERE \"PK\" = 'a' OR (\"PK\" = 'b' AND "
                  "\"x\" = 1)", NULL, DYNO_ERROR_UNSUPPORTED,
                  "an OR of values of the partition key PK runs one Query per value");

  /* a key attribute left for a Query's filter, which DynamoDB refuses there */
  assert_refused (draft, "SELECT * FROM \"T\" WHERE \"PK\" = 'a' AND \"SK\" <> 'b'", NULL,
                  DYNO_ERROR_UNSUPPORTED,
                  "the condition SK <> \"b\" uses the key attribute SK, which a Query's filter "
                  "cannot");
  assert_refused (draft, "SELECT * FROM \"T\" WHERE \"PK\" = 'a' AND \"SK\" > 'b' AND "
                  "\"SK\" < 'm'", NULL, DYNO_ERROR_UNSUPPORTED,
                  "the condition SK < \"m\" uses the key attribute SK");
  /* reversed bounds select nothing, where the BETWEEN they would make is refused */
  assert_refused (draft, "SELECT * FROM \"T\" WHERE \"PK\" = 'a' AND \"SK\" >= 'm' AND "
                  "\"SK\" <= 'b'", NULL, DYNO_ERROR_UNSUPPORTED,
                  "the condition SK <= \"b\" uses the key attribute SK");
  assert_refused (draft, "SELECT * FROM \"T\" WHERE \"PK\" = 'a' AND (\"x\" = 1 OR "
                  "size(\"PK\") > 3)", NULL, DYNO_ERROR_UNSUPPORTED,
                  "uses the key attribute PK");
  assert_refused (draft, "SELECT * FROM \"T\" WHERE \"PK\" = 'a' AND \"SK\" IN ['b', 'c']",
                  NULL, DYNO_ERROR_UNSUPPORTED, "uses the key attribute SK");

  /* ORDER BY */
  assert_refused (draft, "SELECT * FROM \"T\" WHERE \"x\" = 1 ORDER BY \"SK\" DESC", NULL,
                  DYNO_ERROR_UNSUPPORTED, "ORDER BY needs a Query, and without an equality on "
                  "the partition key PK the statement reads as a Scan");
  assert_refused (draft, "SELECT * FROM \"T\" ORDER BY \"SK\"", NULL,
                  DYNO_ERROR_UNSUPPORTED, "ORDER BY needs a Query");
  assert_refused (draft, "SELECT * FROM \"T\" WHERE \"PK\" = 'a' ORDER BY \"x\" DESC", NULL,
                  DYNO_ERROR_UNSUPPORTED,
                  "ORDER BY x: the builder orders a Query by its sort key SK only");
  assert_refused (draft, "SELECT * FROM \"T\" WHERE \"PK\" = 'a' ORDER BY \"PK\"", NULL,
                  DYNO_ERROR_UNSUPPORTED, "ORDER BY PK: the builder orders a Query by its "
                  "sort key SK only");
  assert_refused (no_sort_key, "SELECT * FROM \"T\" WHERE \"PK\" = 'a' ORDER BY \"SK\" DESC",
                  NULL, DYNO_ERROR_UNSUPPORTED,
                  "ORDER BY SK: the queried table or index has no sort key");
  assert_refused (bare, "SELECT * FROM \"T\" WHERE \"PK\" = 'a' ORDER BY \"SK\" DESC", NULL,
                  DYNO_ERROR_UNSUPPORTED, "ORDER BY needs a Query, and without the key schema "
                  "of T the key condition cannot be told apart");

  assert_refused (draft, "SELECT * FROM \"T\".\"nope\" WHERE \"PK\" = 'a' ORDER BY \"SK\"",
                  NULL, DYNO_ERROR_UNSUPPORTED, "without the key schema of T.nope");

  /* a nested projection is returned flattened by PartiQL */
  assert_refused (draft, "SELECT \"a\".\"b\" FROM \"T\" WHERE \"PK\" = 'a'", NULL,
                  DYNO_ERROR_UNSUPPORTED, "projecting the nested path a.b returns it as a "
                  "top-level attribute");
  assert_refused (draft, "SELECT \"l\"[1] FROM \"T\"", NULL, DYNO_ERROR_UNSUPPORTED,
                  "the nested path l[1]");

  /* and a statement that does not parse: the parser's error */
  assert_refused (draft, "SELECT * FROM", NULL, DYNO_ERROR_SYNTAX,
                  "Statement wasn't well formed, can't be processed: Unexpected end of "
                  "statement");
  assert_refused (draft, "SELECT * FROM \"T\" WHERE foo(\"x\")", NULL, DYNO_ERROR_VALIDATION,
                  "Unrecognized function: foo");

  g_assert_cmpint (dyno_query_draft_get_limit (draft), ==, 7);
}

/* ---- the round trip through the "partiql" code target ---------------------------------------- */

typedef struct {
  DynoOperation        op;
  const char          *index;
  const char          *pk;        /* the partition key text */
  DynoSortKeyOperator  sk_op;
  const char          *sk;
  const char          *sk2;
  const char          *filter;    /* inline syntax, or NULL */
  const char          *projection;
  DynoTristate         forward;
} DraftSpec;

static DynoQueryDraft *
draft_from_spec (DynoTableInfo   *info,
                 const DraftSpec *spec)
{
  DynoQueryDraft *draft = draft_new (info);

  dyno_query_draft_set_table_name (draft, "T");
  dyno_query_draft_set_operation (draft, spec->op);
  dyno_query_draft_set_index_name (draft, spec->index);
  if (spec->op == DYNO_OP_QUERY)
    {
      dyno_query_draft_set_partition_key_text (draft, spec->pk);
      dyno_query_draft_set_sort_key_operator (draft, spec->sk_op);
      dyno_query_draft_set_sort_key_text (draft, spec->sk);
      dyno_query_draft_set_sort_key_text2 (draft, spec->sk2);
      g_assert_nonnull (dyno_query_draft_get_key_condition (draft));
    }
  if (spec->filter != NULL)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(DynoExpr) filter = dyno_expr_parse_condition (spec->filter, DYNO_SYNTAX_INLINE,
                                                              DYNO_EXPR_ROLE_FILTER, NULL,
                                                              NULL, NULL, NULL, &error);

      g_assert_no_error (error);
      dyno_query_draft_set_filter (draft, filter);
    }
  if (spec->projection != NULL)
    {
      g_auto(GStrv) names = g_strsplit (spec->projection, ",", -1);
      g_autoptr(GPtrArray) paths = dyno_projection_new ();

      for (guint i = 0; names[i] != NULL; i++)
        g_ptr_array_add (paths, dyno_path_new (names[i]));
      dyno_query_draft_set_projection (draft, paths);
    }
  dyno_query_draft_set_scan_index_forward (draft, spec->forward);
  return draft;
}

/* draft -> request -> the "partiql" target's statement -> dyno_query_draft_load_partiql() ->
 * request: the same request.  Compared: dyno_request_equal() (the same structure and values,
 * parentheses aside) and the dyno_request_to_json() texts as they are, placeholder names
 * included: no expression on either side carries names a person wrote (the drafts are built
 * from parts and inline text, the statement has literals), so both sides get the printer's
 * own names from the same structure. */
static void
test_round_trip (void)
{
  static const DraftSpec specs[] = {
    { DYNO_OP_QUERY, NULL, "USER#1", DYNO_SORT_KEY_NONE, "", "", NULL, NULL,
      DYNO_TRISTATE_UNSET },
    { DYNO_OP_QUERY, NULL, "USER#1", DYNO_SORT_KEY_EQ, "PROFILE", "", NULL, NULL,
      DYNO_TRISTATE_UNSET },
    { DYNO_OP_QUERY, NULL, "USER#1", DYNO_SORT_KEY_LT, "ORDER#2024", "", NULL, "status,total",
      DYNO_TRISTATE_UNSET },
    { DYNO_OP_QUERY, NULL, "USER#1", DYNO_SORT_KEY_BETWEEN, "A", "M", "status = \"open\"", NULL,
      DYNO_TRISTATE_UNSET },
    { DYNO_OP_QUERY, NULL, "USER#1", DYNO_SORT_KEY_BEGINS_WITH, "ORDER#", "", NULL, NULL,
      DYNO_TRISTATE_FALSE },
    { DYNO_OP_QUERY, NULL, "it's", DYNO_SORT_KEY_GE, "x", "",
      "size(tags) > 2 OR attribute_not_exists(deleted)", "name", DYNO_TRISTATE_FALSE },
    { DYNO_OP_QUERY, "gsi1", "g", DYNO_SORT_KEY_GT, "5", "", "price BETWEEN 1 AND 10", NULL,
      DYNO_TRISTATE_FALSE },
    { DYNO_OP_QUERY, NULL, "u", DYNO_SORT_KEY_LE, "z", "",
      "(a = 1 OR b = 2) AND contains(tags, \"x\") AND address.city[0] = \"Paris\" AND "
      "flag = true AND gone = null", "a,b", DYNO_TRISTATE_UNSET },
    { DYNO_OP_SCAN, NULL, NULL, DYNO_SORT_KEY_NONE, NULL, NULL, NULL, NULL,
      DYNO_TRISTATE_UNSET },
    { DYNO_OP_SCAN, NULL, NULL, DYNO_SORT_KEY_NONE, NULL, NULL, "PK = \"a\" OR SK > \"b\"",
      NULL, DYNO_TRISTATE_UNSET },
    { DYNO_OP_SCAN, NULL, NULL, DYNO_SORT_KEY_NONE, NULL, NULL,
      "attribute_type(m, \"M\") AND NOT (n <> 1) AND price >= 0.5", "PK,SK,status",
      DYNO_TRISTATE_UNSET },
    { DYNO_OP_SCAN, "gsi1", NULL, DYNO_SORT_KEY_NONE, NULL, NULL, "gsi1sk IN (1, 2, 3)", NULL,
      DYNO_TRISTATE_UNSET },
    { DYNO_OP_SCAN, NULL, NULL, DYNO_SORT_KEY_NONE, NULL, NULL, "PK = \"only\"", NULL,
      DYNO_TRISTATE_UNSET },
  };
  g_autoptr(DynoTableInfo) info = schema ();
  DynoCodegenOptions options = { 0, };

  for (guint i = 0; i < G_N_ELEMENTS (specs); i++)
    {
      g_autoptr(DynoQueryDraft) draft = draft_from_spec (info, &specs[i]);
      g_autoptr(DynoQueryDraft) back = draft_new (info);
      g_autoptr(DynoRequest) request = dyno_query_draft_to_request (draft);
      g_autoptr(DynoRequest) request_back = NULL;
      g_autoptr(GError) error = NULL;
      g_autofree char *statement = NULL;
      g_autofree char *json = NULL;
      g_autofree char *json_back = NULL;

      statement = dyno_codegen_emit (request, "partiql", &options, &error);
      g_assert_no_error (error);
      g_test_message ("%u: %s", i, statement);

      if (i == G_N_ELEMENTS (specs) - 1)
        {
          /* A Scan whose filter is an equality on the partition key reads back as the Query
           * DynamoDB runs for that statement: the same items, read by key. */
          load_ok (back, statement, NULL);
          assert_draft (back, DYNO_OP_QUERY, NULL, "PK = \"only\"", NULL, NULL,
                        DYNO_TRISTATE_UNSET);
          continue;
        }

      load_ok (back, statement, NULL);
      request_back = dyno_query_draft_to_request (back);
      json = dyno_request_to_json (request, FALSE);
      json_back = dyno_request_to_json (request_back, FALSE);
      g_assert_cmpstr (json_back, ==, json);
      g_assert_true (dyno_request_equal (request_back, request));
      /* a key condition from parts reads back as parts */
      g_assert_cmpint (dyno_query_draft_get_key_condition_structured (back), ==,
                       dyno_query_draft_get_key_condition_structured (draft));
      g_assert_cmpint (dyno_query_draft_get_sort_key_operator (back), ==,
                       dyno_query_draft_get_sort_key_operator (draft));
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/query-draft-partiql/query/partition-key", test_query_partition_key);
  g_test_add_func ("/query-draft-partiql/query/sort-key", test_query_sort_key_operators);
  g_test_add_func ("/query-draft-partiql/query/filter", test_query_filter);
  g_test_add_func ("/query-draft-partiql/query/index", test_index);
  g_test_add_func ("/query-draft-partiql/query/order-by", test_order_by);
  g_test_add_func ("/query-draft-partiql/query/parameters", test_parameters);
  g_test_add_func ("/query-draft-partiql/query/key-type-mismatch", test_key_type_mismatch);
  g_test_add_func ("/query-draft-partiql/scan", test_scan);
  g_test_add_func ("/query-draft-partiql/no-schema", test_no_schema);
  g_test_add_func ("/query-draft-partiql/replaces-state", test_replaces_state);
  g_test_add_func ("/query-draft-partiql/unsupported", test_unsupported);
  g_test_add_func ("/query-draft-partiql/round-trip", test_round_trip);

  return g_test_run ();
}
