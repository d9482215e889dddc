/* test-export.c: items out as JSON lines and CSV, and back in through the importer
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "dyno-error.h"
#include "dyno-export.h"
#include "dyno-import.h"
#include "dyno-json.h"

static DynoItem *
item (const char *ddb_json)
{
  g_autoptr(GError) error = NULL;
  DynoItem *it = dyno_item_from_ddb_json (ddb_json, -1, &error);

  g_assert_no_error (error);
  return it;
}

/* Items with every type, awkward strings and attributes missing here and there. */
static GPtrArray *
sample_items (void)
{
  GPtrArray *items = g_ptr_array_new_with_free_func ((GDestroyNotify) dyno_item_unref);

  g_ptr_array_add (items, item ("{\"pk\":{\"S\":\"USER#1\"},\"sk\":{\"N\":\"1\"},"
                                "\"name\":{\"S\":\"Ann, \\\"the\\\" first\\nline two\"},"
                                "\"bin\":{\"B\":\"AAEC/w==\"},\"ok\":{\"BOOL\":true},"
                                "\"nothing\":{\"NULL\":true},"
                                "\"doc\":{\"M\":{\"a\":{\"S\":\"x\"},\"b\":{\"L\":[{\"N\":\"2\"}]}}},"
                                "\"list\":{\"L\":[{\"S\":\"a\"},{\"B\":\"AQ==\"}]},"
                                "\"tags\":{\"SS\":[\"a\",\"b,c\"]},\"nums\":{\"NS\":[\"1.5\",\"-3\"]},"
                                "\"bins\":{\"BS\":[\"AQ==\",\"Ag==\"]}}"));
  g_ptr_array_add (items, item ("{\"pk\":{\"S\":\"#hash first\"},\"sk\":{\"N\":\"2\"},"
                                "\"name\":{\"S\":\"\"},\"bin\":{\"B\":\"\"}}"));
  g_ptr_array_add (items, item ("{\"pk\":{\"S\":\"USER#3\"},\"sk\":{\"N\":\"12345678901234567890.5\"},"
                                "\"tags\":{\"SS\":[\"z\"]},\"ok\":{\"BOOL\":false},"
                                "\"mixed\":{\"S\":\"text\"}}"));
  g_ptr_array_add (items, item ("{\"pk\":{\"S\":\"USER#4\"},\"sk\":{\"N\":\"4\"},"
                                "\"mixed\":{\"N\":\"7\"},\"caf\\u00e9\":{\"S\":\"\\u00fcml\\u00e4ut\"}}"));
  return items;
}

static void
assert_same_items (GPtrArray *expected,
                   GPtrArray *actual)
{
  g_assert_cmpuint (actual->len, ==, expected->len);
  for (guint i = 0; i < expected->len; i++)
    if (!dyno_item_equal (g_ptr_array_index (expected, i), g_ptr_array_index (actual, i)))
      {
        g_autofree char *a = dyno_item_to_ddb_json (g_ptr_array_index (expected, i));
        g_autofree char *b = dyno_item_to_ddb_json (g_ptr_array_index (actual, i));

        g_error ("item %u differs:\n  expected %s\n  actual   %s", i, a, b);
      }
}

static GPtrArray *
import_all (const char       *text,
            DynoImportFormat  format,
            GHashTable       *mapping)
{
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func ((GDestroyNotify) dyno_item_unref);
  g_autoptr(GPtrArray) rejects =
    g_ptr_array_new_with_free_func ((GDestroyNotify) dyno_import_reject_free);
  g_autoptr(GError) error = NULL;

  g_assert_true (dyno_import_text (text, strlen (text), format, NULL, mapping, items, rejects,
                                   &error));
  g_assert_no_error (error);
  for (guint i = 0; i < rejects->len; i++)
    {
      DynoImportReject *r = g_ptr_array_index (rejects, i);
      g_error ("row %" G_GUINT64_FORMAT " rejected: %s", r->row, r->reason);
    }
  return g_steal_pointer (&items);
}

static void
test_format_names (void)
{
  DynoExportFormat f;

  g_assert_true (dyno_export_format_from_string ("csv", &f));
  g_assert_cmpint (f, ==, DYNO_EXPORT_CSV);
  g_assert_true (dyno_export_format_from_string ("PLAIN-JSONL", &f));
  g_assert_cmpint (f, ==, DYNO_EXPORT_PLAIN_JSONL);
  g_assert_true (dyno_export_format_from_string ("ddb", &f));
  g_assert_cmpint (f, ==, DYNO_EXPORT_DDB_JSONL);
  g_assert_false (dyno_export_format_from_string ("xml", &f));
  g_assert_cmpstr (dyno_export_format_to_string (DYNO_EXPORT_CSV), ==, "csv");
}

static void
test_ddb_jsonl_round_trip (void)
{
  g_autoptr(GPtrArray) items = sample_items ();
  g_autoptr(GError) error = NULL;
  g_autofree char *text = dyno_export_items (items, DYNO_EXPORT_DDB_JSONL, NULL, &error);
  g_autoptr(GPtrArray) back = NULL;
  g_auto(GStrv) lines = NULL;

  g_assert_no_error (error);
  lines = g_strsplit (text, "\n", -1);
  /* one line per item, and a final newline */
  g_assert_cmpuint (g_strv_length (lines), ==, items->len + 1);
  g_assert_cmpstr (lines[items->len], ==, "");

  back = import_all (text, DYNO_IMPORT_DDB_JSONL, NULL);
  assert_same_items (items, back);
}

static void
test_plain_jsonl_type_hints (void)
{
  g_autoptr(GPtrArray) items = sample_items ();
  g_autoptr(DynoExporter) exporter = dyno_exporter_new (DYNO_EXPORT_PLAIN_JSONL, NULL);
  g_autoptr(GString) out = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GHashTable) mapping = NULL;
  g_autoptr(GPtrArray) back = NULL;
  g_autoptr(GPtrArray) without = NULL;
  g_autofree char *hints = NULL;
  gboolean ambiguous = TRUE;

  for (guint i = 0; i < items->len; i++)
    g_assert_true (dyno_exporter_add_item (exporter, g_ptr_array_index (items, i), out, &error));
  g_assert_true (dyno_exporter_finish (exporter, out, &error));
  g_assert_no_error (error);

  /* B and sets cannot be told from JSON: the hints name exactly those */
  hints = dyno_exporter_dup_type_hints (exporter, &ambiguous);
  g_assert_nonnull (hints);
  g_assert_false (ambiguous);
  mapping = dyno_import_parse_type_mapping (hints, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_hash_table_size (mapping), ==, 4);
  g_assert_cmpint (GPOINTER_TO_INT (g_hash_table_lookup (mapping, "bin")), ==, DYNO_VALUE_B);
  g_assert_cmpint (GPOINTER_TO_INT (g_hash_table_lookup (mapping, "tags")), ==, DYNO_VALUE_SS);
  g_assert_cmpint (GPOINTER_TO_INT (g_hash_table_lookup (mapping, "nums")), ==, DYNO_VALUE_NS);
  g_assert_cmpint (GPOINTER_TO_INT (g_hash_table_lookup (mapping, "bins")), ==, DYNO_VALUE_BS);

  /* Nested B inside L stays a string in plain JSON: compare the items without it. */
  back = import_all (out->str, DYNO_IMPORT_PLAIN_JSONL, mapping);
  g_assert_cmpuint (back->len, ==, items->len);
  for (guint i = 0; i < items->len; i++)
    {
      DynoItem *a = g_ptr_array_index (items, i);
      DynoItem *b = g_ptr_array_index (back, i);
      const DynoValue *map = dyno_item_get_map (a);

      g_assert_cmpuint (dyno_item_get_n_attributes (a), ==, dyno_item_get_n_attributes (b));
      for (guint k = 0; k < dyno_value_get_n_children (map); k++)
        {
          const char *name = dyno_value_get_member_name (map, k, NULL);

          if (strcmp (name, "list") == 0)
            continue;
          g_assert_true (dyno_value_equal (dyno_value_get_child (map, k),
                                           dyno_item_lookup (b, name)));
        }
    }

  /* without the mapping the set comes back as a list: the mapping is what makes it exact */
  without = import_all (out->str, DYNO_IMPORT_PLAIN_JSONL, NULL);
  g_assert_cmpint (dyno_value_get_kind (dyno_item_lookup (g_ptr_array_index (without, 0),
                                                          "tags")), ==, DYNO_VALUE_L);
}

static void
test_plain_hints_ambiguous (void)
{
  g_autoptr(DynoExporter) exporter = dyno_exporter_new (DYNO_EXPORT_PLAIN_JSONL, NULL);
  g_autoptr(GString) out = g_string_new (NULL);
  g_autoptr(DynoItem) a = item ("{\"x\":{\"B\":\"AQ==\"}}");
  g_autoptr(DynoItem) b = item ("{\"x\":{\"S\":\"AQ==\"}}");
  g_autofree char *hints = NULL;
  gboolean ambiguous = FALSE;

  g_assert_true (dyno_exporter_add_item (exporter, a, out, NULL));
  g_assert_true (dyno_exporter_add_item (exporter, b, out, NULL));
  hints = dyno_exporter_dup_type_hints (exporter, &ambiguous);
  g_assert_null (hints);
  g_assert_true (ambiguous);
}

static void
test_csv_round_trip (void)
{
  g_autoptr(GPtrArray) items = sample_items ();
  g_autoptr(DynoTableInfo) schema = dyno_table_info_new ("t", "pk", DYNO_VALUE_S, "sk",
                                                         DYNO_VALUE_N);
  g_autoptr(GError) error = NULL;
  g_autofree char *text = dyno_export_items (items, DYNO_EXPORT_CSV, schema, &error);
  g_autoptr(GPtrArray) back = NULL;

  g_assert_no_error (error);
  /* header: keys first; the type row follows; the mixed column is ANY */
  g_assert_true (g_str_has_prefix (text, "pk,sk,name,bin,ok,nothing,doc,list,tags,nums,bins,"));
  g_assert_nonnull (strstr (text, "\r\n#types:S,N,S,B,BOOL,NULL,M,L,SS,NS,BS,ANY,S\r\n"));
  /* the '#' data cell is quoted so it is never taken for a type row */
  g_assert_nonnull (strstr (text, "\r\n\"#hash first\",2,\"\",\"\","));

  back = import_all (text, DYNO_IMPORT_CSV, NULL);
  assert_same_items (items, back);

  /* the same text read with auto-detection */
  g_clear_pointer (&back, g_ptr_array_unref);
  back = import_all (text, DYNO_IMPORT_AUTO, NULL);
  assert_same_items (items, back);
}

static void
test_csv_fixed_columns_stream (void)
{
  g_autoptr(DynoExporter) exporter = dyno_exporter_new (DYNO_EXPORT_CSV, NULL);
  const char *columns[] = { "pk", "n", NULL };
  g_autoptr(GString) out = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(DynoItem) a = item ("{\"pk\":{\"S\":\"a\"},\"n\":{\"N\":\"1\"}}");
  g_autoptr(DynoItem) b = item ("{\"pk\":{\"S\":\"b\"}}");
  g_autoptr(DynoItem) c = item ("{\"pk\":{\"S\":\"c\"},\"n\":{\"S\":\"one\"}}");
  g_autoptr(DynoItem) d = item ("{\"pk\":{\"S\":\"d\"},\"extra\":{\"S\":\"x\"}}");

  dyno_exporter_set_columns (exporter, columns);
  dyno_exporter_set_type_row (exporter, FALSE);

  /* streaming: each item is written as it comes */
  g_assert_true (dyno_exporter_add_item (exporter, a, out, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (out->str, ==, "pk,n\r\na,1\r\n");
  g_assert_true (dyno_exporter_add_item (exporter, b, out, &error));
  g_assert_cmpstr (out->str, ==, "pk,n\r\na,1\r\nb,\r\n");

  /* the first item made n an N column: a string there is an error naming both */
  g_assert_false (dyno_exporter_add_item (exporter, c, out, &error));
  g_assert_error (error, DYNO_ERROR, DYNO_ERROR_INVALID_VALUE);
  g_assert_nonnull (strstr (error->message, "Item 3"));
  g_assert_nonnull (strstr (error->message, "n"));
  g_clear_error (&error);
  g_assert_cmpstr (out->str, ==, "pk,n\r\na,1\r\nb,\r\n");

  /* an attribute outside the columns is an error unless dropping is allowed */
  g_assert_false (dyno_exporter_add_item (exporter, d, out, &error));
  g_assert_error (error, DYNO_ERROR, DYNO_ERROR_INVALID_VALUE);
  g_assert_nonnull (strstr (error->message, "extra"));
  g_clear_error (&error);
  dyno_exporter_set_drop_other_attributes (exporter, TRUE);
  g_assert_true (dyno_exporter_add_item (exporter, d, out, &error));
  g_assert_true (g_str_has_suffix (out->str, "d,\r\n"));
  g_assert_cmpuint (dyno_exporter_get_n_items (exporter), ==, 3);
}

static void
test_csv_chosen_types (void)
{
  g_autoptr(DynoExporter) exporter = dyno_exporter_new (DYNO_EXPORT_CSV, NULL);
  g_autoptr(GString) out = g_string_new (NULL);
  g_autoptr(DynoItem) a = item ("{\"pk\":{\"S\":\"a\"},\"v\":{\"N\":\"1\"}}");
  g_autoptr(GPtrArray) back = NULL;
  g_autoptr(GPtrArray) one = g_ptr_array_new ();

  dyno_exporter_set_column_type (exporter, "v", DYNO_CSV_TYPE_ANY);
  g_assert_true (dyno_exporter_add_item (exporter, a, out, NULL));
  g_assert_true (dyno_exporter_finish (exporter, out, NULL));
  g_assert_cmpstr (out->str, ==, "pk,v\r\n#types:S,ANY\r\na,\"{\"\"N\"\":\"\"1\"\"}\"\r\n");

  back = import_all (out->str, DYNO_IMPORT_CSV, NULL);
  g_ptr_array_add (one, a);
  assert_same_items (one, back);
}

static void
test_csv_two_passes (void)
{
  g_autoptr(GPtrArray) items = sample_items ();
  g_autoptr(DynoTableInfo) schema = dyno_table_info_new ("t", "pk", DYNO_VALUE_S, "sk",
                                                         DYNO_VALUE_N);
  g_autoptr(DynoExporter) exporter = dyno_exporter_new (DYNO_EXPORT_CSV, schema);
  g_autoptr(GString) out = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *one_pass = dyno_export_items (items, DYNO_EXPORT_CSV, schema, NULL);
  gsize after_first;

  for (guint i = 0; i < items->len; i++)
    dyno_exporter_observe (exporter, g_ptr_array_index (items, i));
  dyno_exporter_fix_observed_columns (exporter);

  /* the second pass streams: the header and the first row come with the first item */
  g_assert_true (dyno_exporter_add_item (exporter, g_ptr_array_index (items, 0), out, &error));
  g_assert_no_error (error);
  after_first = out->len;
  g_assert_cmpuint (after_first, >, 0);
  for (guint i = 1; i < items->len; i++)
    g_assert_true (dyno_exporter_add_item (exporter, g_ptr_array_index (items, i), out, &error));
  g_assert_true (dyno_exporter_finish (exporter, out, &error));
  /* the same text as keeping every item until the end */
  g_assert_cmpstr (out->str, ==, one_pass);
}

static void
test_csv_field_quoting (void)
{
  g_autoptr(GString) out = g_string_new (NULL);

  dyno_csv_write_field (out, "plain", 5, FALSE);
  g_string_append_c (out, '|');
  dyno_csv_write_field (out, "a,b", 3, FALSE);
  g_string_append_c (out, '|');
  dyno_csv_write_field (out, "say \"hi\"", 8, FALSE);
  g_string_append_c (out, '|');
  dyno_csv_write_field (out, "two\r\nlines", 10, FALSE);
  g_string_append_c (out, '|');
  dyno_csv_write_field (out, "", 0, TRUE);
  g_assert_cmpstr (out->str, ==, "plain|\"a,b\"|\"say \"\"hi\"\"\"|\"two\r\nlines\"|\"\"");
}

static void
test_stream (void)
{
  g_autoptr(GPtrArray) items = sample_items ();
  g_autoptr(GOutputStream) stream = g_memory_output_stream_new_resizable ();
  g_autoptr(DynoExporter) exporter = dyno_exporter_new (DYNO_EXPORT_DDB_JSONL, NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *expected = dyno_export_items (items, DYNO_EXPORT_DDB_JSONL, NULL, NULL);
  g_autofree char *data = NULL;

  for (guint i = 0; i < items->len; i++)
    g_assert_true (dyno_exporter_write_item (exporter, g_ptr_array_index (items, i), stream,
                                             NULL, &error));
  g_assert_true (dyno_exporter_close (exporter, stream, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_output_stream_close (stream, NULL, NULL));
  g_assert_cmpuint (g_memory_output_stream_get_data_size (G_MEMORY_OUTPUT_STREAM (stream)), ==,
                    strlen (expected));
  data = g_strndup (g_memory_output_stream_get_data (G_MEMORY_OUTPUT_STREAM (stream)),
                    strlen (expected));
  g_assert_cmpstr (data, ==, expected);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/export/format-names", test_format_names);
  g_test_add_func ("/export/ddb-jsonl-round-trip", test_ddb_jsonl_round_trip);
  g_test_add_func ("/export/plain-jsonl-type-hints", test_plain_jsonl_type_hints);
  g_test_add_func ("/export/plain-hints-ambiguous", test_plain_hints_ambiguous);
  g_test_add_func ("/export/csv-round-trip", test_csv_round_trip);
  g_test_add_func ("/export/csv-fixed-columns-stream", test_csv_fixed_columns_stream);
  g_test_add_func ("/export/csv-chosen-types", test_csv_chosen_types);
  g_test_add_func ("/export/csv-two-passes", test_csv_two_passes);
  g_test_add_func ("/export/csv-field-quoting", test_csv_field_quoting);
  g_test_add_func ("/export/stream", test_stream);

  return g_test_run ();
}
