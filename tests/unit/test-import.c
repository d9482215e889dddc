/* test-import.c: the streaming reader of JSON lines, JSON arrays and CSV, and its report of
 * rejected rows
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "dyno-error.h"
#include "dyno-export.h"
#include "dyno-import.h"
#include "dyno-json.h"

typedef struct {
  GPtrArray *items;    /* DynoItem* */
  GArray    *rows;     /* row of each item */
  GPtrArray *rejects;  /* DynoImportReject* */
  GError    *error;    /* FAILED */
} Result;

static void
result_free (Result *r)
{
  g_ptr_array_unref (r->items);
  g_array_unref (r->rows);
  g_ptr_array_unref (r->rejects);
  g_clear_error (&r->error);
  g_free (r);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Result, result_free)

/* Feeds @text in pieces of @chunk bytes (0: all at once), as a file read would. */
static Result *
run (const char       *text,
     gsize             chunk,
     DynoImportFormat  format,
     DynoTableInfo    *schema,
     const char       *mapping_text)
{
  g_autoptr(DynoImporter) importer = dyno_importer_new (format, schema);
  Result *r = g_new0 (Result, 1);
  gsize len = strlen (text);
  gsize fed = 0;

  r->items = g_ptr_array_new_with_free_func ((GDestroyNotify) dyno_item_unref);
  r->rows = g_array_new (FALSE, FALSE, sizeof (guint64));
  r->rejects = g_ptr_array_new_with_free_func ((GDestroyNotify) dyno_import_reject_free);
  if (mapping_text != NULL)
    {
      g_autoptr(GHashTable) mapping = dyno_import_parse_type_mapping (mapping_text, NULL);

      g_assert_nonnull (mapping);
      dyno_importer_set_type_mapping (importer, mapping);
    }
  if (chunk == 0)
    chunk = MAX (len, 1);

  for (;;)
    {
      DynoItem *item = NULL;
      DynoImportReject *reject = NULL;
      guint64 row = 0;

      switch (dyno_importer_next (importer, &item, &reject, &row, &r->error))
        {
        case DYNO_IMPORT_NEED_MORE:
          if (fed < len)
            {
              gsize n = MIN (chunk, len - fed);

              dyno_importer_feed (importer, text + fed, n);
              fed += n;
            }
          else
            dyno_importer_feed_eof (importer);
          break;
        case DYNO_IMPORT_ITEM:
          g_ptr_array_add (r->items, item);
          g_array_append_val (r->rows, row);
          break;
        case DYNO_IMPORT_REJECTED:
          g_assert_cmpuint (row, ==, reject->row);
          g_ptr_array_add (r->rejects, reject);
          break;
        case DYNO_IMPORT_END:
          g_assert_cmpuint (dyno_importer_get_n_items (importer), ==, r->items->len);
          g_assert_cmpuint (dyno_importer_get_n_rejected (importer), ==, r->rejects->len);
          g_assert_cmpuint (dyno_importer_get_bytes_read (importer), ==, len);
          return r;
        case DYNO_IMPORT_FAILED:
          g_assert_nonnull (r->error);
          return r;
        default:
          g_assert_not_reached ();
        }
    }
}

static DynoImportReject *
reject_at (Result *r,
           guint   i)
{
  g_assert_cmpuint (i, <, r->rejects->len);
  return g_ptr_array_index (r->rejects, i);
}

static void
assert_reject (Result     *r,
               guint       i,
               guint64     row,
               guint64     line,
               const char *needle)
{
  DynoImportReject *reject = reject_at (r, i);

  g_assert_cmpuint (reject->row, ==, row);
  g_assert_cmpuint (reject->line, ==, line);
  if (strstr (reject->reason, needle) == NULL)
    g_error ("reject %u: \u201c%s\u201d does not contain \u201c%s\u201d", i, reject->reason,
             needle);
}

static const DynoValue *
attr (Result     *r,
      guint       i,
      const char *name)
{
  g_assert_cmpuint (i, <, r->items->len);
  return dyno_item_lookup (g_ptr_array_index (r->items, i), name);
}

static DynoTableInfo *
orders_schema (void)
{
  DynoTableInfo *schema = dyno_table_info_new ("orders", "pk", DYNO_VALUE_S, "sk",
                                               DYNO_VALUE_N);
  DynoIndexInfo gsi = { 0, };

  gsi.name = (char *) "byStatus";
  gsi.global = TRUE;
  gsi.partition_key.name = (char *) "status";
  gsi.partition_key.type = DYNO_VALUE_S;
  gsi.projection = DYNO_PROJECTION_ALL;
  dyno_table_info_add_index (schema, &gsi);
  return schema;
}

/* The bad rows of the integration test, one of each kind. */
static char *
bad_rows_jsonl (void)
{
  GString *s = g_string_new ("\xef\xbb\xbf");
  g_autofree char *big = g_strnfill (409700, 'x');

  g_string_append (s, "{\"pk\":{\"S\":\"A\"},\"sk\":{\"N\":\"1\"}}\n");                 /* 1 ok */
  g_string_append (s, "\n   \n");                                                         /* 2,3 blank */
  g_string_append (s, "{\"sk\":{\"N\":\"2\"}}\r\n");                                       /* 4 no pk */
  g_string_append (s, "{\"pk\":{\"N\":\"5\"},\"sk\":{\"N\":\"3\"}}\n");                  /* 5 type */
  g_string_append (s, "{\"pk\":{\"S\":\"\"},\"sk\":{\"N\":\"4\"}}\n");                   /* 6 empty */
  g_string_append (s, "{\"pk\":{\"S\":\"B\"},\"sk\":{\"N\":\"5\"}\n");                   /* 7 JSON */
  g_string_append_printf (s, "{\"pk\":{\"S\":\"C\"},\"sk\":{\"N\":\"6\"},"
                          "\"d\":{\"S\":\"%s\"}}\n", big);                                 /* 8 size */
  g_string_append (s, "{\"pk\":{\"S\":\"D\"},\"sk\":{\"N\":\"12abc\"}}\n");              /* 9 N */
  g_string_append (s, "{\"pk\":{\"S\":\"E\"},\"sk\":{\"N\":\"7\"},\"status\":{\"N\":\"1\"}}\n"); /* 10 gsi */
  g_string_append (s, "{\"pk\":{\"S\":\"F\"},\"sk\":{\"N\":\"8\"},\"tags\":{\"SS\":[]}}\n");  /* 11 set */
  g_string_append (s, "{\"pk\":{\"S\":\"G\"},\"sk\":{\"N\":\"9\"}}");                      /* 12 ok, no \n */
  return g_string_free (s, FALSE);
}

static void
check_bad_rows (Result *r)
{
  g_assert_no_error (r->error);
  g_assert_cmpuint (r->items->len, ==, 2);
  g_assert_cmpuint (g_array_index (r->rows, guint64, 0), ==, 1);
  g_assert_cmpuint (g_array_index (r->rows, guint64, 1), ==, 10);
  g_assert_cmpstr (dyno_value_get_string (attr (r, 1, "pk"), NULL), ==, "G");

  g_assert_cmpuint (r->rejects->len, ==, 8);
  assert_reject (r, 0, 2, 4, "partition key pk");
  assert_reject (r, 1, 3, 5, "must be of type S");
  assert_reject (r, 2, 4, 6, "empty");
  assert_reject (r, 3, 5, 7, "JSON");
  assert_reject (r, 4, 6, 8, "400 KB");
  assert_reject (r, 5, 7, 9, "sk");
  assert_reject (r, 6, 8, 10, "byStatus");
  assert_reject (r, 7, 9, 11, "tags");
}

static void
test_jsonl_bad_rows (void)
{
  g_autoptr(DynoTableInfo) schema = orders_schema ();
  g_autofree char *text = bad_rows_jsonl ();
  g_autoptr(Result) whole = run (text, 0, DYNO_IMPORT_DDB_JSONL, schema, NULL);
  g_autoptr(Result) pieces = run (text, 7, DYNO_IMPORT_DDB_JSONL, schema, NULL);
  g_autoptr(Result) autodetect = run (text, 4096, DYNO_IMPORT_AUTO, schema, NULL);

  check_bad_rows (whole);
  check_bad_rows (pieces);
  check_bad_rows (autodetect);
}

static void
test_no_schema (void)
{
  /* without a schema only the values are checked */
  g_autoptr(Result) r = run ("{\"a\":{\"S\":\"\"}}\n{\"b\":{\"N\":\"x\"}}\n", 0,
                             DYNO_IMPORT_DDB_JSONL, NULL, NULL);

  g_assert_cmpuint (r->items->len, ==, 1);
  g_assert_cmpuint (r->rejects->len, ==, 1);
  assert_reject (r, 0, 2, 2, "b");
}

static void
test_plain_jsonl_mapping (void)
{
  g_autoptr(DynoTableInfo) schema = dyno_table_info_new ("t", "id", DYNO_VALUE_N, NULL,
                                                         DYNO_VALUE_S);
  const char *text =
    "{\"id\":\"17\",\"data\":\"AAEC\",\"tags\":[\"a\",\"b\"],\"n\":[1,2.50],\"price\":12.50}\n"
    "{\"id\":18,\"data\":\"not base64!\"}\n"
    "{\"id\":19,\"tags\":[\"a\",\"a\"]}\n";
  g_autoptr(Result) r = run (text, 3, DYNO_IMPORT_PLAIN_JSONL, schema,
                             "data:B,tags:SS,n:NS");
  gsize len = 0;
  const guint8 *bytes;

  g_assert_no_error (r->error);
  for (guint i = 0; i < r->rejects->len; i++)
    g_test_message ("rejected: %s", reject_at (r, i)->reason);
  g_assert_cmpuint (r->items->len, ==, 1);
  /* the key type from the schema turns "17" into an N */
  g_assert_cmpint (dyno_value_get_kind (attr (r, 0, "id")), ==, DYNO_VALUE_N);
  g_assert_cmpstr (dyno_value_get_string (attr (r, 0, "id"), NULL), ==, "17");
  bytes = dyno_value_get_binary (attr (r, 0, "data"), &len);
  g_assert_cmpuint (len, ==, 3);
  g_assert_cmpuint (bytes[2], ==, 2);
  g_assert_cmpint (dyno_value_get_kind (attr (r, 0, "tags")), ==, DYNO_VALUE_SS);
  g_assert_cmpint (dyno_value_get_kind (attr (r, 0, "n")), ==, DYNO_VALUE_NS);
  /* exact numbers, never through a double */
  g_assert_cmpstr (dyno_value_get_string (attr (r, 0, "price"), NULL), ==, "12.5");

  g_assert_cmpuint (r->rejects->len, ==, 2);
  assert_reject (r, 0, 2, 2, "data");
  assert_reject (r, 1, 3, 3, "duplicates");
}

static void
test_auto_plain_and_s3 (void)
{
  g_autoptr(Result) plain = run ("{\"pk\":\"a\",\"n\":1}\n{\"pk\":\"b\",\"n\":2}\n", 0,
                                 DYNO_IMPORT_AUTO, NULL, NULL);
  g_autoptr(Result) s3 = run ("{\"Item\":{\"pk\":{\"S\":\"a\"}}}\n{\"Item\":{\"pk\":{\"S\":\"b\"}}}\n",
                              0, DYNO_IMPORT_AUTO, NULL, NULL);

  /* a first line with a bad value is still DynamoDB JSON, not plain maps */
  g_autoptr(Result) bad_first = run ("{\"pk\":{\"S\":\"a\"},\"n\":{\"N\":\"12abc\"}}\n"
                                     "{\"pk\":{\"S\":\"b\"}}\n", 0, DYNO_IMPORT_AUTO, NULL, NULL);

  g_assert_cmpuint (bad_first->items->len, ==, 1);
  g_assert_cmpuint (bad_first->rejects->len, ==, 1);
  assert_reject (bad_first, 0, 1, 1, "12abc");
  g_assert_cmpint (dyno_value_get_kind (attr (bad_first, 0, "pk")), ==, DYNO_VALUE_S);

  g_assert_cmpuint (plain->items->len, ==, 2);
  g_assert_cmpint (dyno_value_get_kind (attr (plain, 1, "n")), ==, DYNO_VALUE_N);
  g_assert_cmpuint (s3->items->len, ==, 2);
  g_assert_cmpstr (dyno_value_get_string (attr (s3, 1, "pk"), NULL), ==, "b");
}

/* Records nested deeper than DynamoDB's 32 levels, even too deep to skip, are rejected as
 * DynamoDB JSON, naming the attribute; the rest of the file is read. */
static void
test_too_deep (void)
{
  GString *deep = g_string_new ("{\"pk\":{\"S\":\"x\"},\"d\":");
  GString *text = g_string_new (NULL);
  g_autoptr(Result) lines = NULL;
  g_autoptr(Result) s3 = NULL;
  g_autoptr(Result) array = NULL;

  for (int i = 0; i < 5000; i++)
    g_string_append (deep, "{\"L\":[");
  g_string_append (deep, "{\"S\":\"leaf\"}");
  for (int i = 0; i < 5000; i++)
    g_string_append (deep, "]}");
  g_string_append_c (deep, '}');

  g_string_printf (text, "%s\n{\"pk\":{\"S\":\"ok\"}}\n", deep->str);
  lines = run (text->str, 0, DYNO_IMPORT_AUTO, NULL, NULL);
  g_string_printf (text, "{\"Item\":%s}\n{\"Item\":{\"pk\":{\"S\":\"ok\"}}}\n", deep->str);
  s3 = run (text->str, 0, DYNO_IMPORT_AUTO, NULL, NULL);
  g_string_printf (text, "[%s,{\"pk\":{\"S\":\"ok\"}}]", deep->str);
  array = run (text->str, 0, DYNO_IMPORT_AUTO, NULL, NULL);

  for (guint i = 0; i < 3; i++)
    {
      Result *r = i == 0 ? lines : i == 1 ? s3 : array;

      g_assert_no_error (r->error);
      g_assert_cmpuint (r->items->len, ==, 1);
      g_assert_cmpstr (dyno_value_get_string (attr (r, 0, "pk"), NULL), ==, "ok");
      assert_reject (r, 0, 1, 1, "Attribute d[0][0][0]");
      assert_reject (r, 0, 1, 1, "nested more than 32 levels deep");
    }
  g_string_free (deep, TRUE);
  g_string_free (text, TRUE);
}

static void
test_json_array (void)
{
  g_autoptr(DynoTableInfo) schema = orders_schema ();
  const char *text =
    "[\n"
    "  {\"pk\":{\"S\":\"a]\"},\"sk\":{\"N\":\"1\"},\"s\":{\"S\":\"x,\\\"y\\\"}\"}},\n"
    "  {\"pk\":{\"S\":\"b\"}},\n"
    "  {\"pk\":{\"S\":\"c\"},\"sk\":{\"N\":\"3\"},\"l\":{\"L\":[{\"N\":\"1\"},{\"N\":\"2\"}]}},\n"
    "  42,\n"
    "  {\"pk\":{\"S\":\"d\"},\"sk\":{\"N\":\"4\"}}\n"
    "]\n";
  g_autoptr(Result) r = run (text, 5, DYNO_IMPORT_AUTO, schema, NULL);
  g_autoptr(Result) empty = run (" [ ] ", 0, DYNO_IMPORT_JSON_ARRAY, NULL, NULL);
  g_autoptr(Result) open = run ("[{\"pk\":{\"S\":\"a\"}},{\"pk\":{\"S\":", 0,
                                DYNO_IMPORT_JSON_ARRAY, NULL, NULL);
  g_autoptr(Result) not_array = run ("{}", 0, DYNO_IMPORT_JSON_ARRAY, NULL, NULL);

  g_assert_no_error (r->error);
  g_assert_cmpuint (r->items->len, ==, 3);
  g_assert_cmpstr (dyno_value_get_string (attr (r, 0, "s"), NULL), ==, "x,\"y\"}");
  g_assert_cmpuint (g_array_index (r->rows, guint64, 2), ==, 5);
  g_assert_cmpuint (r->rejects->len, ==, 2);
  assert_reject (r, 0, 2, 3, "sort key sk");
  assert_reject (r, 1, 4, 5, "");

  g_assert_no_error (empty->error);
  g_assert_cmpuint (empty->items->len, ==, 0);

  /* the items before the cut are read; then the input cannot be read on */
  g_assert_cmpuint (open->items->len, ==, 1);
  g_assert_error (open->error, DYNO_ERROR, DYNO_ERROR_JSON);
  g_assert_error (not_array->error, DYNO_ERROR, DYNO_ERROR_JSON);
}

static void
test_csv (void)
{
  g_autoptr(DynoTableInfo) schema = orders_schema ();
  const char *text =
    "pk,sk,note,flag,tags\r\n"
    "#types:,,S,BOOL,SS\r\n"
    "A,1,\"multi\r\nline, with \"\"quotes\"\"\",true,\"[\"\"x\"\",\"\"y\"\"]\"\r\n"
    "B,2,,false,\r\n"                         /* note and tags absent */
    "C,3,\"\",,\r\n"                          /* note is the empty string */
    "D,4,only three\r\n"                      /* too few cells */
    "E,x,n,true,\r\n"                         /* sk not a number */
    "F,6,\"bad\"quote,true,\r\n"              /* text after a closing quote */
    "\r\n"
    ",7,,true,\r\n"                           /* no partition key */
    "G,8,n,yes,\r\n"                          /* not a BOOL */
    "H,9,last,false,\"[\"\"z\"\"]\"";         /* no final newline */
  g_autoptr(Result) r = run (text, 0, DYNO_IMPORT_CSV, schema, NULL);
  g_autoptr(Result) bytewise = run (text, 1, DYNO_IMPORT_AUTO, schema, NULL);

  for (guint pass = 0; pass < 2; pass++)
    {
      Result *x = pass == 0 ? r : bytewise;

      g_assert_no_error (x->error);
      g_assert_cmpuint (x->items->len, ==, 4);
      g_assert_cmpstr (dyno_value_get_string (attr (x, 0, "note"), NULL), ==,
                       "multi\r\nline, with \"quotes\"");
      g_assert_cmpint (dyno_value_get_kind (attr (x, 0, "sk")), ==, DYNO_VALUE_N);
      g_assert_true (dyno_value_get_bool (attr (x, 0, "flag")));
      g_assert_cmpint (dyno_value_get_kind (attr (x, 0, "tags")), ==, DYNO_VALUE_SS);
      g_assert_null (attr (x, 1, "note"));
      g_assert_null (attr (x, 1, "tags"));
      g_assert_cmpstr (dyno_value_get_string (attr (x, 2, "note"), NULL), ==, "");
      g_assert_null (attr (x, 2, "flag"));
      g_assert_cmpuint (dyno_item_get_n_attributes (g_ptr_array_index (x->items, 3)), ==, 5);

      g_assert_cmpuint (x->rejects->len, ==, 5);
      assert_reject (x, 0, 4, 7, "3 cells");
      assert_reject (x, 1, 5, 8, "sk");
      assert_reject (x, 2, 6, 9, "closing quote");
      assert_reject (x, 3, 7, 11, "partition key pk");
      assert_reject (x, 4, 8, 12, "flag");
    }
}

static void
test_csv_header_errors (void)
{
  g_autoptr(Result) dup = run ("a,b,a\n1,2,3\n", 0, DYNO_IMPORT_CSV, NULL, NULL);
  g_autoptr(Result) empty_name = run ("a,,c\n", 0, DYNO_IMPORT_CSV, NULL, NULL);
  g_autoptr(Result) empty = run ("", 0, DYNO_IMPORT_CSV, NULL, NULL);
  g_autoptr(Result) bad_type = run ("a,b\n#types:S,STRING\n", 0, DYNO_IMPORT_CSV, NULL, NULL);
  g_autoptr(Result) quoted_marker = run ("a\n\"#types:S\"\n", 0, DYNO_IMPORT_CSV, NULL, NULL);

  g_assert_error (dup->error, DYNO_ERROR, DYNO_ERROR_VALIDATION);
  g_assert_nonnull (strstr (dup->error->message, "twice"));
  g_assert_error (empty_name->error, DYNO_ERROR, DYNO_ERROR_VALIDATION);
  g_assert_error (empty->error, DYNO_ERROR, DYNO_ERROR_VALIDATION);
  g_assert_error (bad_type->error, DYNO_ERROR, DYNO_ERROR_VALIDATION);
  g_assert_nonnull (strstr (bad_type->error->message, "STRING"));
  /* a quoted first cell is data, never the type row */
  g_assert_no_error (quoted_marker->error);
  g_assert_cmpuint (quoted_marker->items->len, ==, 1);
  g_assert_cmpstr (dyno_value_get_string (attr (quoted_marker, 0, "a"), NULL), ==, "#types:S");
}

static void
test_csv_mapping_overrides (void)
{
  /* a mapping beats the type row; columns without either are S */
  g_autoptr(Result) r = run ("k,v,w\n#types:S,S,S\nx,10,10\n", 0, DYNO_IMPORT_CSV, NULL,
                             "v:N");

  g_assert_cmpuint (r->items->len, ==, 1);
  g_assert_cmpint (dyno_value_get_kind (attr (r, 0, "v")), ==, DYNO_VALUE_N);
  g_assert_cmpint (dyno_value_get_kind (attr (r, 0, "w")), ==, DYNO_VALUE_S);
}

static void
test_type_mapping (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GHashTable) ok = dyno_import_parse_type_mapping ("a:s, b:NS,c:d:BS,doc:any", &error);
  g_autoptr(GHashTable) bad = NULL;

  g_assert_no_error (error);
  g_assert_cmpint (GPOINTER_TO_INT (g_hash_table_lookup (ok, "a")), ==, DYNO_VALUE_S);
  g_assert_cmpint (GPOINTER_TO_INT (g_hash_table_lookup (ok, "b")), ==, DYNO_VALUE_NS);
  /* the last ':' separates: names may hold colons */
  g_assert_cmpint (GPOINTER_TO_INT (g_hash_table_lookup (ok, "c:d")), ==, DYNO_VALUE_BS);
  g_assert_cmpint (GPOINTER_TO_INT (g_hash_table_lookup (ok, "doc")), ==, DYNO_CSV_TYPE_ANY);

  bad = dyno_import_parse_type_mapping ("a:S,b", &error);
  g_assert_null (bad);
  g_assert_error (error, DYNO_ERROR, DYNO_ERROR_VALIDATION);
  g_assert_nonnull (strstr (error->message, "\"b\""));
  g_clear_error (&error);
  bad = dyno_import_parse_type_mapping ("a:STRING", &error);
  g_assert_null (bad);
  g_assert_nonnull (strstr (error->message, "STRING"));
}

static void
test_key_string_and_check (void)
{
  g_autoptr(DynoTableInfo) schema = orders_schema ();
  g_autoptr(DynoItem) a = dyno_item_from_ddb_json ("{\"sk\":{\"N\":\"1\"},\"pk\":{\"S\":\"x\"},"
                                                   "\"v\":{\"S\":\"1\"}}", -1, NULL);
  g_autoptr(DynoItem) b = dyno_item_from_ddb_json ("{\"pk\":{\"S\":\"x\"},\"sk\":{\"N\":\"1.0\"}}",
                                                   -1, NULL);
  g_autoptr(DynoItem) c = dyno_item_from_ddb_json ("{\"pk\":{\"S\":\"x\"}}", -1, NULL);
  g_autofree char *ka = dyno_import_key_string (schema, a);
  g_autofree char *kb = dyno_import_key_string (schema, b);
  g_autofree char *kc = dyno_import_key_string (schema, c);
  g_autofree char *reason = dyno_import_check_item (schema, c);
  g_autofree char *fine = dyno_import_check_item (schema, a);

  /* the same key however the item is written */
  g_assert_cmpstr (ka, ==, kb);
  g_assert_null (kc);
  g_assert_nonnull (reason);
  g_assert_null (fine);
}

/* Mutated inputs of every format, fed in odd pieces: every byte is accounted for (END) or
 * the reader says it cannot go on (FAILED); nothing crashes (run under ASan). */
static void
test_mutations (void)
{
  static const char * const seeds[] = {
    "{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"1\"},\"l\":{\"L\":[{\"M\":{\"x\":{\"B\":\"AQ==\"}}}]}}\n"
    "{\"pk\":\"b\",\"sk\":2}\n",
    "[{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"1\"}},{\"pk\":{\"S\":\"b\"},\"sk\":{\"N\":\"2\"}}]",
    "pk,sk,tags,doc\r\n#types:S,N,SS,M\r\na,1,\"[\"\"x\"\"]\",\"{\"\"k\"\":{\"\"S\"\":\"\"v\"\"}}\"\r\n",
  };
  static const char alphabet[] = "{}[]\",:\\\r\n #SNBLM01aZ\xc3\xa9";
  g_autoptr(DynoTableInfo) schema = orders_schema ();
  GRand *rand = g_rand_new_with_seed (20260623);

  for (guint round = 0; round < 600; round++)
    {
      const char *seed = seeds[round % G_N_ELEMENTS (seeds)];
      g_autoptr(GString) text = g_string_new (seed);
      guint n_mutations = g_rand_int_range (rand, 1, 6);
      g_autoptr(Result) r = NULL;

      for (guint m = 0; m < n_mutations; m++)
        {
          guint at = g_rand_int_range (rand, 0, text->len + 1);
          char c = alphabet[g_rand_int_range (rand, 0, sizeof alphabet - 1)];

          switch (g_rand_int_range (rand, 0, 3))
            {
            case 0:
              g_string_insert_c (text, at, c);
              break;
            case 1:
              if (at < text->len)
                g_string_erase (text, at, 1);
              break;
            default:
              if (at < text->len)
                text->str[at] = c;
              break;
            }
        }
      r = run (text->str, g_rand_int_range (rand, 1, 9),
               (DynoImportFormat) g_rand_int_range (rand, 0, DYNO_IMPORT_CSV + 1),
               round % 2 ? schema : NULL, round % 3 ? NULL : "tags:SS,doc:M");
      /* run() has checked that END accounts for every byte and record */
      g_assert_true (r->error == NULL || r->error->domain == DYNO_ERROR);
    }
  g_rand_free (rand);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/import/jsonl-bad-rows", test_jsonl_bad_rows);
  g_test_add_func ("/import/no-schema", test_no_schema);
  g_test_add_func ("/import/plain-jsonl-mapping", test_plain_jsonl_mapping);
  g_test_add_func ("/import/auto-plain-and-s3", test_auto_plain_and_s3);
  g_test_add_func ("/import/json-array", test_json_array);
  g_test_add_func ("/import/too-deep", test_too_deep);
  g_test_add_func ("/import/csv", test_csv);
  g_test_add_func ("/import/csv-header-errors", test_csv_header_errors);
  g_test_add_func ("/import/csv-mapping-overrides", test_csv_mapping_overrides);
  g_test_add_func ("/import/type-mapping", test_type_mapping);
  g_test_add_func ("/import/key-string-and-check", test_key_string_and_check);
  g_test_add_func ("/import/mutations", test_mutations);

  return g_test_run ();
}
