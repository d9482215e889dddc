/* test-query-store.c: DynoQueryStore, saved queries and the history of runs
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>

#include "dyno-error.h"
#include "dyno-expr.h"
#include "dyno-query-store.h"

typedef struct {
  char *dir;
  char *path;
} Fixture;

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  fixture->dir = g_dir_make_tmp ("dyno-query-store-XXXXXX", &error);
  g_assert_no_error (error);
  /* a folder the store has to create */
  fixture->path = g_build_filename (fixture->dir, "sub", "queries.json", NULL);
}

static void
remove_tree (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR))
        remove_tree (child);
      else
        g_unlink (child);
    }
  g_rmdir (path);
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  remove_tree (fixture->dir);
  g_free (fixture->dir);
  g_free (fixture->path);
}

/* A Query on T: PK = @pk, SK between "A" and "M", newest first, 25 per page, 500 in all. */
static DynoQueryDraft *
make_draft (const char *pk)
{
  DynoQueryDraft *draft = dyno_query_draft_new ();

  dyno_query_draft_set_table_name (draft, "T");
  dyno_query_draft_set_partition_key_text (draft, pk);
  dyno_query_draft_set_sort_key_operator (draft, DYNO_SORT_KEY_BETWEEN);
  dyno_query_draft_set_sort_key_text (draft, "A");
  dyno_query_draft_set_sort_key_text2 (draft, "M");
  dyno_query_draft_set_scan_index_forward (draft, DYNO_TRISTATE_FALSE);
  dyno_query_draft_set_limit (draft, 25);
  dyno_query_draft_set_max_items (draft, 500);
  return draft;
}

static void
write_file (Fixture    *fixture,
            const char *text)
{
  g_autofree char *dir = g_path_get_dirname (fixture->path);
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  g_file_set_contents (fixture->path, text, -1, &error);
  g_assert_no_error (error);
}

static GPtrArray *
broken_files (Fixture *fixture)
{
  g_autofree char *dir = g_path_get_dirname (fixture->path);
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  GPtrArray *found = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    if (g_str_has_prefix (name, "queries.json.broken-"))
      g_ptr_array_add (found, g_build_filename (dir, name, NULL));
  return found;
}

/* ---- tests ------------------------------------------------------------------------------------ */

static void
test_round_trip (Fixture       *fixture,
                 gconstpointer  data)
{
  g_autoptr(DynoQueryStore) store = dyno_query_store_new (fixture->path);
  g_autoptr(DynoQueryStore) again = NULL;
  g_autoptr(DynoQueryDraft) draft = make_draft ("USER#1");
  g_autoptr(DynoQueryDraft) other = make_draft ("USER#2");
  g_autoptr(GDateTime) when = g_date_time_new_utc (2026, 6, 23, 9, 14, 5);
  g_autoptr(GError) error = NULL;
  g_autofree char *first = NULL;
  g_autofree char *second = NULL;
  g_autofree char *draft_json = NULL;
  g_autofree char *entry_json = NULL;
  g_autoptr(DynoQueryEntry) saved = NULL;
  g_autoptr(DynoQueryEntry) run = NULL;
  GListModel *list;
  GStatBuf st;

  g_assert_true (dyno_query_store_load (store, &error));  /* no file yet: empty */
  g_assert_no_error (error);
  g_assert_nonnull (dyno_query_store_save_query (store, "conn-1", "T", "  Orders of 1 ", draft,
                                                 &error));
  g_assert_no_error (error);
  g_assert_nonnull (dyno_query_store_add_history (store, "conn-1", "T", other, 10, 2, 1.5, when));
  /* another connection, same table name: another list */
  g_assert_nonnull (dyno_query_store_add_history (store, "conn-2", "T", draft, 0, 1, -1, NULL));
  /* the draft is copied: changing it later does not change what was saved */
  dyno_query_draft_set_partition_key_text (draft, "CHANGED");
  g_assert_true (dyno_query_store_save (store, &error));
  g_assert_no_error (error);

  g_assert_cmpint (g_stat (fixture->path, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0600);

  again = dyno_query_store_new (fixture->path);
  g_assert_true (dyno_query_store_load (again, &error));
  g_assert_no_error (error);

  list = dyno_query_store_get_saved (again, "conn-1", "T");
  g_assert_cmpuint (g_list_model_get_n_items (list), ==, 1);
  saved = g_list_model_get_item (list, 0);
  g_assert_cmpstr (dyno_query_entry_get_name (saved), ==, "Orders of 1");
  g_assert_cmpstr (dyno_query_draft_get_partition_key_text (dyno_query_entry_get_draft (saved)),
                   ==, "USER#1");
  g_assert_cmpint (dyno_query_draft_get_sort_key_operator (dyno_query_entry_get_draft (saved)),
                   ==, DYNO_SORT_KEY_BETWEEN);
  g_assert_cmpuint (dyno_query_draft_get_max_items (dyno_query_entry_get_draft (saved)), ==, 500);
  g_assert_cmpint (dyno_query_draft_get_limit (dyno_query_entry_get_draft (saved)), ==, 25);
  g_assert_cmpint (dyno_query_draft_get_scan_index_forward (dyno_query_entry_get_draft (saved)),
                   ==, DYNO_TRISTATE_FALSE);

  list = dyno_query_store_get_history (again, "conn-1", "T");
  g_assert_cmpuint (g_list_model_get_n_items (list), ==, 1);
  run = g_list_model_get_item (list, 0);
  g_assert_null (dyno_query_entry_get_name (run));
  g_assert_cmpuint (dyno_query_entry_get_n_items (run), ==, 10);
  g_assert_cmpuint (dyno_query_entry_get_n_pages (run), ==, 2);
  g_assert_cmpfloat (dyno_query_entry_get_rcu (run), ==, 1.5);
  g_assert_true (g_date_time_equal (dyno_query_entry_get_when (run), when));
  /* the request is the one that ran */
  draft_json = dyno_query_draft_to_json (other, FALSE);
  entry_json = dyno_query_draft_to_json (dyno_query_entry_get_draft (run), FALSE);
  g_assert_cmpstr (entry_json, ==, draft_json);

  list = dyno_query_store_get_history (again, "conn-2", "T");
  g_assert_cmpuint (g_list_model_get_n_items (list), ==, 1);
  {
    g_autoptr(DynoQueryEntry) unknown = g_list_model_get_item (list, 0);

    g_assert_cmpfloat (dyno_query_entry_get_rcu (unknown), <, 0);
  }
  g_assert_cmpuint (g_list_model_get_n_items (dyno_query_store_get_saved (again, "conn-2", "T")),
                    ==, 0);

  /* written again, the file is the same */
  first = dyno_query_store_to_json (store);
  second = dyno_query_store_to_json (again);
  g_assert_cmpstr (first, ==, second);
}

static void
test_no_secrets (Fixture       *fixture,
                 gconstpointer  data)
{
  g_autoptr(DynoQueryStore) store = dyno_query_store_new (fixture->path);
  g_autoptr(DynoQueryDraft) draft = make_draft ("USER#1");
  g_autofree char *json = NULL;

  dyno_query_store_add_history (store, "4f0c-id", "T", draft, 1, 1, 0.5, NULL);
  json = dyno_query_store_to_json (store);
  /* the connection is named by id; nothing of credentials is in the model to write */
  g_assert_nonnull (strstr (json, "\"4f0c-id\""));
  g_assert_null (strstr (json, "ecret"));
  g_assert_null (strstr (json, "AccessKey"));
}

static void
check_corrupt (Fixture    *fixture,
               const char *text,
               const char *expected_part)
{
  g_autoptr(DynoQueryStore) store = dyno_query_store_new (fixture->path);
  g_autoptr(DynoQueryDraft) draft = make_draft ("USER#1");
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) aside = NULL;
  g_autofree char *kept = NULL;
  g_autofree char *written = NULL;

  write_file (fixture, text);
  g_assert_false (dyno_query_store_load (store, &error));
  g_assert_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG);
  if (g_test_verbose ())
    g_printerr ("%s\n", error->message);
  /* says which file, what and where, and where the file went */
  g_assert_nonnull (strstr (error->message, fixture->path));
  g_assert_nonnull (strstr (error->message, expected_part));
  aside = broken_files (fixture);
  g_assert_cmpuint (aside->len, ==, 1);
  g_assert_nonnull (strstr (error->message, g_ptr_array_index (aside, 0)));
  g_assert_true (g_file_get_contents (g_ptr_array_index (aside, 0), &kept, NULL, NULL));
  g_assert_cmpstr (kept, ==, text);
  g_assert_false (g_file_test (fixture->path, G_FILE_TEST_EXISTS));

  /* the store is empty and works; saving does not touch the kept file */
  g_assert_cmpuint (g_list_model_get_n_items (dyno_query_store_get_saved (store, "c", "T")), ==, 0);
  g_clear_error (&error);
  g_assert_nonnull (dyno_query_store_save_query (store, "c", "T", "q", draft, &error));
  g_assert_true (dyno_query_store_save (store, &error));
  g_assert_no_error (error);
  g_clear_pointer (&kept, g_free);
  g_assert_true (g_file_get_contents (g_ptr_array_index (aside, 0), &kept, NULL, NULL));
  g_assert_cmpstr (kept, ==, text);
  g_assert_true (g_file_get_contents (fixture->path, &written, NULL, NULL));
  g_assert_nonnull (strstr (written, "\"q\""));

  g_unlink (g_ptr_array_index (aside, 0));
  g_unlink (fixture->path);
}

static void
test_corrupt (Fixture       *fixture,
              gconstpointer  data)
{
  /* bad JSON: the line and column */
  check_corrupt (fixture, "{\n  \"format\": \"dynotable-queries\",\n  \"version\": 1,\n  tables\n}",
                 "4");
  /* a truncated file (what a crash without atomic writes would leave) */
  check_corrupt (fixture, "{\"format\": \"dynotable-queries\", \"version\": 1, \"tables\": [{",
                 "1");
  check_corrupt (fixture, "[]", "not a JSON object");
  check_corrupt (fixture, "{\"format\": \"other\", \"version\": 1}", "“other”");
  check_corrupt (fixture, "{\"format\": \"dynotable-queries\", \"version\": 7}", "version 7");
  check_corrupt (fixture, "{\"format\": \"dynotable-queries\", \"version\": 1, \"tables\": "
                 "[{\"connection\": \"c\", \"table\": \"T\", \"history\": [{\"when\": "
                 "\"2026-06-23T09:14:05Z\", \"items\": -1, \"pages\": 1, \"query\": {}}]}]}",
                 "tables[0].history[0]: “items”");
  check_corrupt (fixture, "{\"format\": \"dynotable-queries\", \"version\": 1, \"tables\": "
                 "[{\"connection\": \"c\", \"table\": \"T\", \"saved\": [{\"name\": \"x\", "
                 "\"when\": \"yesterday\", \"query\": {}}]}]}",
                 "tables[0].saved[0]: “when”");
  check_corrupt (fixture, "{\"format\": \"dynotable-queries\", \"version\": 1, \"tables\": "
                 "[{\"connection\": \"c\", \"table\": \"T\", \"secret\": 1}]}",
                 "tables[0]: unknown member “secret”");
  check_corrupt (fixture, "{\"format\": \"dynotable-queries\", \"version\": 1, \"tables\": "
                 "[{\"connection\": \"c\", \"table\": \"T\", \"saved\": [{\"name\": \"x\", "
                 "\"when\": \"2026-06-23T09:14:05Z\", \"query\": {\"format\": \"nope\"}}]}]}",
                 "tables[0].saved[0].query:");
}

static void
test_unreadable_kept (Fixture       *fixture,
                      gconstpointer  data)
{
  g_autoptr(DynoQueryStore) store = dyno_query_store_new (fixture->path);
  g_autoptr(GError) error = NULL;

  /* a folder where the file should be: cannot be read, is not moved, is not written over */
  g_assert_cmpint (g_mkdir_with_parents (fixture->path, 0700), ==, 0);
  g_assert_false (dyno_query_store_load (store, &error));
  g_assert_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG);
  g_assert_nonnull (strstr (error->message, fixture->path));
  g_clear_error (&error);
  g_assert_false (dyno_query_store_save (store, &error));
  g_assert_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG);
  g_assert_true (g_file_test (fixture->path, G_FILE_TEST_IS_DIR));
  g_rmdir (fixture->path);
}

static void
test_bounded_history (Fixture       *fixture,
                      gconstpointer  data)
{
  g_autoptr(DynoQueryStore) store = dyno_query_store_new (fixture->path);
  g_autoptr(DynoQueryStore) again = dyno_query_store_new (fixture->path);
  g_autoptr(GError) error = NULL;
  GListModel *history = dyno_query_store_get_history (store, "c", "T");

  for (guint i = 0; i < DYNO_QUERY_STORE_MAX_HISTORY + 5; i++)
    {
      g_autofree char *pk = g_strdup_printf ("USER#%u", i);
      g_autoptr(DynoQueryDraft) draft = make_draft (pk);

      dyno_query_store_add_history (store, "c", "T", draft, i, 1, 0.5, NULL);
    }
  g_assert_cmpuint (g_list_model_get_n_items (history), ==, DYNO_QUERY_STORE_MAX_HISTORY);
  /* newest first; the five oldest are gone */
  {
    g_autoptr(DynoQueryEntry) newest = g_list_model_get_item (history, 0);
    g_autoptr(DynoQueryEntry) oldest =
      g_list_model_get_item (history, DYNO_QUERY_STORE_MAX_HISTORY - 1);

    g_assert_cmpuint (dyno_query_entry_get_n_items (newest), ==, DYNO_QUERY_STORE_MAX_HISTORY + 4);
    g_assert_cmpuint (dyno_query_entry_get_n_items (oldest), ==, 5);
  }

  /* another table's history is its own */
  g_assert_cmpuint (g_list_model_get_n_items (dyno_query_store_get_history (store, "c", "U")),
                    ==, 0);

  g_assert_true (dyno_query_store_save (store, &error));
  g_assert_no_error (error);
  g_assert_true (dyno_query_store_load (again, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (dyno_query_store_get_history (again, "c", "T")),
                    ==, DYNO_QUERY_STORE_MAX_HISTORY);
}

static GStrv
saved_names (DynoQueryStore *store)
{
  GListModel *saved = dyno_query_store_get_saved (store, "c", "T");
  GStrvBuilder *builder = g_strv_builder_new ();
  GStrv names;

  for (guint i = 0; i < g_list_model_get_n_items (saved); i++)
    {
      g_autoptr(DynoQueryEntry) entry = g_list_model_get_item (saved, i);

      g_strv_builder_add (builder, dyno_query_entry_get_name (entry));
    }
  names = g_strv_builder_end (builder);
  g_strv_builder_unref (builder);
  return names;
}

static void
test_reorder (Fixture       *fixture,
              gconstpointer  data)
{
  g_autoptr(DynoQueryStore) store = dyno_query_store_new (fixture->path);
  g_autoptr(DynoQueryStore) again = dyno_query_store_new (fixture->path);
  g_autoptr(DynoQueryDraft) draft = make_draft ("USER#1");
  g_autoptr(GError) error = NULL;
  const char *abc[] = { "a", "b", "c", NULL };
  const char *cab[] = { "c", "a", "b", NULL };
  const char *abc2[] = { "a", "b", "c", NULL };

  for (guint i = 0; abc[i] != NULL; i++)
    g_assert_nonnull (dyno_query_store_save_query (store, "c", "T", abc[i], draft, NULL));
  {
    g_auto(GStrv) names = saved_names (store);
    g_assert_cmpstrv (names, abc);
  }
  g_assert_true (dyno_query_store_move_saved (store, "c", "T", 2, 0));
  {
    g_auto(GStrv) names = saved_names (store);
    g_assert_cmpstrv (names, cab);
  }
  g_assert_true (dyno_query_store_move_saved (store, "c", "T", 0, 2));
  {
    g_auto(GStrv) names = saved_names (store);
    g_assert_cmpstrv (names, abc2);
  }
  g_assert_true (dyno_query_store_move_saved (store, "c", "T", 1, 1));
  g_assert_false (dyno_query_store_move_saved (store, "c", "T", 3, 0));
  g_assert_false (dyno_query_store_move_saved (store, "c", "T", 0, 3));
  g_assert_false (dyno_query_store_move_saved (store, "c", "Other", 0, 0));

  g_assert_true (dyno_query_store_move_saved (store, "c", "T", 2, 0));
  g_assert_true (dyno_query_store_save (store, &error));
  g_assert_true (dyno_query_store_load (again, &error));
  g_assert_no_error (error);
  {
    g_auto(GStrv) names = saved_names (again);
    g_assert_cmpstrv (names, cab);
  }

  g_assert_true (dyno_query_store_remove_saved (store, "c", "T", 0));
  g_assert_false (dyno_query_store_remove_saved (store, "c", "T", 5));
  dyno_query_store_move_saved (store, "c", "T", 1, 0);
  g_assert_true (dyno_query_store_remove_saved (store, "c", "T", 0));
  {
    g_auto(GStrv) names = saved_names (store);
    const char *a[] = { "a", NULL };
    g_assert_cmpstrv (names, a);
  }
}

static void
test_names (Fixture       *fixture,
            gconstpointer  data)
{
  g_autoptr(DynoQueryStore) store = dyno_query_store_new (fixture->path);
  g_autoptr(DynoQueryDraft) draft = make_draft ("USER#1");
  g_autoptr(GError) error = NULL;

  g_assert_nonnull (dyno_query_store_save_query (store, "c", "T", "Open orders", draft, &error));
  g_assert_null (dyno_query_store_save_query (store, "c", "T", " Open orders  ", draft, &error));
  g_assert_error (error, DYNO_ERROR, DYNO_ERROR_VALIDATION);
  g_assert_nonnull (strstr (error->message, "“Open orders”"));
  g_clear_error (&error);
  g_assert_null (dyno_query_store_save_query (store, "c", "T", "   ", draft, &error));
  g_assert_error (error, DYNO_ERROR, DYNO_ERROR_VALIDATION);
  g_clear_error (&error);
  /* the same name on another table, or another connection, is another query */
  g_assert_nonnull (dyno_query_store_save_query (store, "c", "U", "Open orders", draft, &error));
  g_assert_nonnull (dyno_query_store_save_query (store, "d", "T", "Open orders", draft, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (dyno_query_store_get_saved (store, "c", "T")), ==, 1);
}

static void
test_search (Fixture       *fixture,
             gconstpointer  data)
{
  g_autoptr(DynoQueryStore) store = dyno_query_store_new (fixture->path);
  g_autoptr(DynoQueryDraft) draft = make_draft ("TENANT#acme");
  DynoQueryEntry *entry;

  entry = dyno_query_store_save_query (store, "c", "T", "Facturas ABIERTAS de Éxito", draft, NULL);
  g_assert_true (dyno_query_entry_matches (entry, NULL));
  g_assert_true (dyno_query_entry_matches (entry, ""));
  g_assert_true (dyno_query_entry_matches (entry, "abiertas"));
  g_assert_true (dyno_query_entry_matches (entry, "éxito facturas"));
  g_assert_true (dyno_query_entry_matches (entry, "ÉXITO"));
  /* the key values are searched too */
  g_assert_true (dyno_query_entry_matches (entry, "acme"));
  g_assert_true (dyno_query_entry_matches (entry, "tenant#ACME abiertas"));
  g_assert_false (dyno_query_entry_matches (entry, "cerradas"));
  g_assert_false (dyno_query_entry_matches (entry, "abiertas cerradas"));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) \
  g_test_add (path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
  ADD ("/query-store/round-trip", test_round_trip);
  ADD ("/query-store/no-secrets", test_no_secrets);
  ADD ("/query-store/corrupt", test_corrupt);
  ADD ("/query-store/unreadable-kept", test_unreadable_kept);
  ADD ("/query-store/bounded-history", test_bounded_history);
  ADD ("/query-store/reorder", test_reorder);
  ADD ("/query-store/names", test_names);
  ADD ("/query-store/search", test_search);
#undef ADD

  return g_test_run ();
}
