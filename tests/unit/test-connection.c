/* test-connection.c: saved connections: what a DynamoDB Local connection signs as, and how
 * the store keeps that choice (and the meaning of connections saved before it existed)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdlib.h>

#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "dyno-connection-store.h"
#include "dyno-engine-backend.h"

static char *
temp_file (const char *contents)
{
  g_autoptr(GError) error = NULL;
  char *path = NULL;
  int fd = g_file_open_tmp ("dyno-connections-XXXXXX.ini", &path, &error);

  g_assert_no_error (error);
  close (fd);
  if (contents != NULL)
    {
      g_file_set_contents (path, contents, -1, &error);
      g_assert_no_error (error);
    }
  return path;
}

static DynoConnection *
first (DynoConnectionStore *store)
{
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (store)), >=, 1);
  return g_list_model_get_item (G_LIST_MODEL (store), 0);
}

/* A DynamoDB Local connection saved by an older version signed with the fixed key: it still
 * does, visibly (a chosen key), so the tables it showed are still there. */
static void
test_old_local_connection (void)
{
  g_autofree char *path = temp_file ("[connection 1234]\n"
                                     "kind=local\n"
                                     "endpoint-url=http://localhost:8000\n");
  g_autoptr(DynoConnectionStore) store = dyno_connection_store_new (path);
  g_autoptr(DynoConnection) connection = NULL;
  g_autoptr(DynoConnectionSettings) settings = NULL;
  g_autofree char *subtitle = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_true (dyno_connection_store_load (store, &error));
  g_assert_no_error (error);
  connection = first (store);
  g_assert_cmpint (dyno_connection_get_sign_as (connection), ==, DYNO_SIGN_AS_KEY);
  g_assert_cmpstr (dyno_connection_get_access_key_id (connection), ==, DYNO_LOCAL_ACCESS_KEY_ID);

  settings = dyno_connection_dup_settings (connection);
  g_assert_cmpstr (settings->access_key_id, ==, DYNO_LOCAL_ACCESS_KEY_ID);
  g_assert_nonnull (settings->secret_access_key);
  g_assert_null (settings->profile);

  subtitle = dyno_connection_dup_subtitle (connection);
  g_assert_nonnull (strstr (subtitle, "localhost:8000"));
  g_assert_nonnull (strstr (subtitle, DYNO_LOCAL_ACCESS_KEY_ID));

  g_unlink (path);
}

static void
test_sign_as_round_trip (void)
{
  g_autofree char *path = temp_file (NULL);
  g_autoptr(DynoConnectionStore) store = dyno_connection_store_new (path);
  g_autoptr(DynoConnectionStore) again = dyno_connection_store_new (path);
  DynoSignAs kinds[] = { DYNO_SIGN_AS_DEFAULT, DYNO_SIGN_AS_PROFILE, DYNO_SIGN_AS_KEY };
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (kinds); i++)
    {
      g_autoptr(DynoConnection) connection = dyno_connection_new (DYNO_CONNECTION_LOCAL);

      dyno_connection_set_sign_as (connection, kinds[i]);
      if (kinds[i] == DYNO_SIGN_AS_PROFILE)
        dyno_connection_set_profile (connection, "dev");
      if (kinds[i] == DYNO_SIGN_AS_KEY)
        dyno_connection_set_access_key_id (connection, "AKIDCHOSEN");
      dyno_connection_store_add (store, connection);
    }
  g_assert_true (dyno_connection_store_save (store, &error));
  g_assert_no_error (error);

  /* the secret sent to DynamoDB Local for a chosen key is not saved */
  g_file_get_contents (path, &text, NULL, &error);
  g_assert_no_error (error);
  g_assert_null (strstr (text, "secret"));

  g_assert_true (dyno_connection_store_load (again, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (again)), ==, 3);
  for (guint i = 0; i < G_N_ELEMENTS (kinds); i++)
    {
      g_autoptr(DynoConnection) connection = g_list_model_get_item (G_LIST_MODEL (again), i);
      g_autoptr(DynoConnectionSettings) settings = dyno_connection_dup_settings (connection);

      g_assert_cmpint (dyno_connection_get_sign_as (connection), ==, kinds[i]);
      g_assert_cmpstr (settings->endpoint_url, ==, "http://localhost:8000");
      switch (kinds[i])
        {
        case DYNO_SIGN_AS_DEFAULT:
          /* nothing chosen: dyno_resolve_config follows the AWS CLI's chain */
          g_assert_null (settings->profile);
          g_assert_null (settings->access_key_id);
          break;
        case DYNO_SIGN_AS_PROFILE:
          g_assert_cmpstr (settings->profile, ==, "dev");
          g_assert_null (settings->access_key_id);
          break;
        case DYNO_SIGN_AS_KEY:
          g_assert_cmpstr (settings->access_key_id, ==, "AKIDCHOSEN");
          g_assert_null (settings->profile);
          break;
        }
    }

  g_unlink (path);
}

static void
test_subtitle (void)
{
  g_autoptr(DynoConnection) connection = dyno_connection_new (DYNO_CONNECTION_LOCAL);
  g_autofree char *plain = NULL;
  g_autofree char *profile = NULL;

  plain = dyno_connection_dup_subtitle (connection);
  g_assert_nonnull (strstr (plain, "localhost:8000"));
  g_assert_nonnull (strstr (plain, "default credentials"));

  dyno_connection_set_sign_as (connection, DYNO_SIGN_AS_PROFILE);
  dyno_connection_set_profile (connection, "dev");
  dyno_connection_set_region (connection, "eu-west-1");
  profile = dyno_connection_dup_subtitle (connection);
  g_assert_nonnull (strstr (profile, "profile dev"));
  g_assert_nonnull (strstr (profile, "eu-west-1"));

  g_assert_true (dyno_connection_is_local (connection));
  g_assert_null (dyno_connection_get_signed_key_id (connection));
}

static void
opened_cb (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  GMainLoop *loop = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(DynoBackend) backend = dyno_connection_open_finish (DYNO_CONNECTION (source), result,
                                                                &error);
  g_autofree char *description = NULL;

  g_assert_no_error (error);
  g_assert_true (DYNO_IS_ENGINE_BACKEND (backend));
  description = dyno_backend_dup_description (backend);
  g_assert_true (g_str_has_prefix (description, "Playground at "));
  g_main_loop_quit (loop);
}

/* The Playground: first in a new store, remembered when removed, its workspace saved, and
 * opened without any server. */
static void
test_playground (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("dyno-connection-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "connections.ini", NULL);
  g_autofree char *workspace = g_build_filename (dir, "sub", "play.sqlite", NULL);
  g_autoptr(DynoConnectionStore) store = dyno_connection_store_new (path);
  g_autoptr(DynoConnectionStore) again = NULL;
  g_autoptr(DynoConnection) playground = NULL;
  g_autoptr(DynoConnection) local = dyno_connection_new (DYNO_CONNECTION_LOCAL);
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  g_autofree char *default_workspace = dyno_connection_dup_default_workspace ();
  g_autofree char *subtitle = NULL;

  g_assert_no_error (error);
  g_assert_true (dyno_connection_store_load (store, &error));
  dyno_connection_store_add (store, local);
  g_assert_true (dyno_connection_store_ensure_playground (store));
  g_assert_false (dyno_connection_store_ensure_playground (store));
  playground = first (store);
  g_assert_cmpint (dyno_connection_get_kind (playground), ==, DYNO_CONNECTION_PLAYGROUND);
  g_assert_cmpstr (dyno_connection_get_name (playground), ==, "Playground");
  g_assert_cmpstr (dyno_connection_get_workspace (playground), ==, default_workspace);
  g_assert_true (g_str_has_suffix (default_workspace, "/dynotable/playground.sqlite"));

  dyno_connection_set_workspace (playground, workspace);
  subtitle = dyno_connection_dup_subtitle (playground);
  g_assert_cmpstr (subtitle, ==, "Built in · play.sqlite");
  g_assert_true (dyno_connection_store_save (store, &error));

  again = dyno_connection_store_new (path);
  g_assert_true (dyno_connection_store_load (again, &error));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (again)), ==, 2);
  g_clear_object (&playground);
  playground = first (again);
  g_assert_cmpstr (dyno_connection_get_workspace (playground), ==, workspace);

  /* opened: the engine, on that file (its folder made) */
  dyno_connection_open_async (playground, NULL, opened_cb, loop);
  g_main_loop_run (loop);
  g_assert_true (g_file_test (workspace, G_FILE_TEST_EXISTS));

  /* removed, it stays removed */
  dyno_connection_store_remove (again, playground);
  g_assert_false (dyno_connection_store_ensure_playground (again));
  g_assert_true (dyno_connection_store_save (again, &error));
  g_clear_object (&store);
  store = dyno_connection_store_new (path);
  g_assert_true (dyno_connection_store_load (store, &error));
  g_assert_false (dyno_connection_store_ensure_playground (store));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (store)), ==, 1);

  {
    g_autofree char *cmd = g_strdup_printf ("rm -rf '%s'", dir);

    g_assert_cmpint (system (cmd), ==, 0);
  }
}

/* Several Playgrounds, each on its own workspace file: named after the file, found by it,
 * saved and loaded. */
static void
test_workspaces (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("dyno-connection-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "connections.ini", NULL);
  g_autofree char *workspaces = dyno_connection_dup_workspaces_dir ();
  g_autofree char *made = dyno_connection_dup_workspace_path_for_name (" Shop ", &error);
  g_autofree char *elsewhere = g_build_filename (dir, "team.model.dynotable", NULL);
  g_autofree char *subtitle = NULL;
  g_autoptr(DynoConnectionStore) store = dyno_connection_store_new (path);
  g_autoptr(DynoConnectionStore) again = NULL;
  g_autoptr(DynoConnection) shop = NULL;
  g_autoptr(DynoConnection) team = NULL;

  g_assert_no_error (error);
  g_assert_true (g_str_has_suffix (workspaces, "/dynotable/workspaces"));
  g_assert_true (g_str_has_prefix (made, workspaces));
  g_assert_true (g_str_has_suffix (made, "/Shop.dynotable"));
  for (guint i = 0; i < 3; i++)
    {
      const char *bad[] = { "  ", "a/b", ".hidden" };
      g_autofree char *none = dyno_connection_dup_workspace_path_for_name (bad[i], &error);

      g_assert_null (none);
      g_assert_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG);
      g_clear_error (&error);
    }

  shop = dyno_connection_new_playground (made);
  team = dyno_connection_new_playground (elsewhere);
  g_assert_cmpstr (dyno_connection_get_name (shop), ==, "Shop");
  g_assert_cmpstr (dyno_connection_get_name (team), ==, "team.model");
  subtitle = dyno_connection_dup_subtitle (team);
  g_assert_cmpstr (subtitle, ==, "Built in · team.model.dynotable");
  g_assert_true (dyno_connection_store_load (store, &error));
  g_assert_true (dyno_connection_store_ensure_playground (store));
  dyno_connection_store_add (store, shop);
  dyno_connection_store_add (store, team);
  g_assert_true (dyno_connection_store_save (store, &error));
  g_assert_no_error (error);

  again = dyno_connection_store_new (path);
  g_assert_true (dyno_connection_store_load (again, &error));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (again)), ==, 3);
  {
    g_autofree char *odd = g_build_filename (dir, ".", "team.model.dynotable", NULL);
    DynoConnection *found = dyno_connection_store_find_workspace (again, odd);

    g_assert_nonnull (found);
    g_assert_cmpint (dyno_connection_get_kind (found), ==, DYNO_CONNECTION_PLAYGROUND);
    g_assert_cmpstr (dyno_connection_get_name (found), ==, "team.model");
    g_assert_cmpstr (dyno_connection_get_workspace (found), ==, elsewhere);
    found = dyno_connection_store_find_workspace (again, made);
    g_assert_nonnull (found);
    g_assert_cmpstr (dyno_connection_get_name (found), ==, "Shop");
  }
  g_assert_null (dyno_connection_store_find_workspace (again, "/nowhere/x.dynotable"));

  {
    g_autofree char *cmd = g_strdup_printf ("rm -rf '%s'", dir);

    g_assert_cmpint (system (cmd), ==, 0);
  }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/connection/old-local-connection", test_old_local_connection);
  g_test_add_func ("/connection/sign-as-round-trip", test_sign_as_round_trip);
  g_test_add_func ("/connection/subtitle", test_subtitle);
  g_test_add_func ("/connection/playground", test_playground);
  g_test_add_func ("/connection/workspaces", test_workspaces);

  return g_test_run ();
}
