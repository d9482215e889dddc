/* test-keyring.c: connection secrets in a real Secret Service (run by with-keyring.sh)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gstdio.h>
#include <libsecret/secret.h>
#include <string.h>

#include "dyno-keyring.h"

#define SECRET_A "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY-dyno-a"
#define SECRET_B "je7MtGbClwBF/2Zp9Utk/h3yCo8nvbEXAMPLEKEY-dyno-b"
#define TOKEN_A "IQoJb3JpZ2luX2VjEXAMPLETOKEN-dyno-a"

static gboolean have_service;

/* The same schema as the library's, to count items independently of its lookup code. */
static const SecretSchema test_schema = {
  DYNO_KEYRING_SCHEMA_NAME, SECRET_SCHEMA_NONE,
  {
    { "connection-id", SECRET_SCHEMA_ATTRIBUTE_STRING },
    { "kind", SECRET_SCHEMA_ATTRIBUTE_STRING },
    { NULL, 0 },
  },
  0, NULL, NULL, NULL, NULL, NULL, NULL, NULL
};

static guint
count_items (const char *connection_id)
{
  g_autoptr(GHashTable) attributes = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GError) error = NULL;
  GList *items;
  guint n;

  g_hash_table_insert (attributes, (gpointer) "connection-id", (gpointer) connection_id);
  items = secret_service_search_sync (NULL, &test_schema, attributes, SECRET_SEARCH_ALL, NULL,
                                      &error);
  g_assert_no_error (error);
  n = g_list_length (items);
  g_list_free_full (items, g_object_unref);
  return n;
}

static gboolean
skip_without_service (void)
{
  if (!have_service)
    g_test_skip ("no Secret Service on the session bus (run under tests/fixtures/with-keyring.sh)");
  return !have_service;
}

static void
test_store_lookup (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynoKeyringSecret) secret = NULL;

  if (skip_without_service ())
    return;
  g_assert_true (dyno_keyring_store_sync ("conn-store", "DynoTable: store", SECRET_A, NULL, NULL,
                                          &error));
  g_assert_no_error (error);
  secret = dyno_keyring_lookup_sync ("conn-store", NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (secret);
  g_assert_cmpstr (secret->secret_access_key, ==, SECRET_A);
  g_assert_null (secret->session_token);
  g_assert_cmpuint (count_items ("conn-store"), ==, 1);

  g_assert_true (dyno_keyring_delete_sync ("conn-store", NULL, &error));
  g_assert_no_error (error);
}

static void
test_session_token (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynoKeyringSecret) with_token = NULL;
  g_autoptr(DynoKeyringSecret) without = NULL;

  if (skip_without_service ())
    return;
  g_assert_true (dyno_keyring_store_sync ("conn-token", "DynoTable: token", SECRET_A, TOKEN_A,
                                          NULL, &error));
  g_assert_no_error (error);
  with_token = dyno_keyring_lookup_sync ("conn-token", NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (with_token->secret_access_key, ==, SECRET_A);
  g_assert_cmpstr (with_token->session_token, ==, TOKEN_A);
  g_assert_cmpuint (count_items ("conn-token"), ==, 2);

  /* Storing a key without a token drops the old token with the old key. */
  g_assert_true (dyno_keyring_store_sync ("conn-token", NULL, SECRET_B, NULL, NULL, &error));
  g_assert_no_error (error);
  without = dyno_keyring_lookup_sync ("conn-token", NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (without->secret_access_key, ==, SECRET_B);
  g_assert_null (without->session_token);
  g_assert_cmpuint (count_items ("conn-token"), ==, 1);

  g_assert_true (dyno_keyring_delete_sync ("conn-token", NULL, &error));
}

static void
test_overwrite (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynoKeyringSecret) secret = NULL;
  g_autoptr(DynoKeyringSecret) other = NULL;

  if (skip_without_service ())
    return;
  g_assert_true (dyno_keyring_store_sync ("conn-over", "DynoTable: over", SECRET_A, NULL, NULL,
                                          &error));
  g_assert_true (dyno_keyring_store_sync ("conn-other", "DynoTable: other", SECRET_A, NULL, NULL,
                                          &error));
  g_assert_true (dyno_keyring_store_sync ("conn-over", "DynoTable: over", SECRET_B, NULL, NULL,
                                          &error));
  g_assert_no_error (error);
  secret = dyno_keyring_lookup_sync ("conn-over", NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (secret->secret_access_key, ==, SECRET_B);
  g_assert_cmpuint (count_items ("conn-over"), ==, 1);
  /* Another connection keeps its own secret. */
  other = dyno_keyring_lookup_sync ("conn-other", NULL, &error);
  g_assert_cmpstr (other->secret_access_key, ==, SECRET_A);

  g_assert_true (dyno_keyring_delete_sync ("conn-over", NULL, &error));
  g_assert_true (dyno_keyring_delete_sync ("conn-other", NULL, &error));
  g_assert_no_error (error);
}

static void
test_delete_and_missing (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynoKeyringSecret) gone = NULL;
  g_autoptr(DynoKeyringSecret) never = NULL;

  if (skip_without_service ())
    return;
  g_assert_true (dyno_keyring_store_sync ("conn-del", "DynoTable: del", SECRET_A, TOKEN_A, NULL,
                                          &error));
  g_assert_true (dyno_keyring_delete_sync ("conn-del", NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (count_items ("conn-del"), ==, 0);
  gone = dyno_keyring_lookup_sync ("conn-del", NULL, &error);
  g_assert_no_error (error);
  g_assert_null (gone);

  never = dyno_keyring_lookup_sync ("conn-never-stored", NULL, &error);
  g_assert_no_error (error);
  g_assert_null (never);
  /* Deleting what is not there is not an error. */
  g_assert_true (dyno_keyring_delete_sync ("conn-never-stored", NULL, &error));
  g_assert_no_error (error);
}

static void
store_cb (GObject      *source,
          GAsyncResult *result,
          gpointer      user_data)
{
  int *state = user_data;
  g_autoptr(GError) error = NULL;

  g_assert_true (dyno_keyring_store_finish (result, &error));
  g_assert_no_error (error);
  *state = 1;
}

static void
lookup_cb (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  DynoKeyringSecret **out = user_data;
  g_autoptr(GError) error = NULL;

  *out = dyno_keyring_lookup_finish (result, &error);
  g_assert_no_error (error);
  g_assert_nonnull (*out);
}

static void
delete_cb (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  int *state = user_data;
  g_autoptr(GError) error = NULL;

  g_assert_true (dyno_keyring_delete_finish (result, &error));
  g_assert_no_error (error);
  *state = 1;
}

static void
missing_cb (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  int *state = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(DynoKeyringSecret) secret = dyno_keyring_lookup_finish (result, &error);

  g_assert_no_error (error);
  g_assert_null (secret);
  *state = 1;
}

static void
test_async (void)
{
  g_autoptr(DynoKeyringSecret) secret = NULL;
  int stored = 0;
  int deleted = 0;
  int missing = 0;

  if (skip_without_service ())
    return;
  dyno_keyring_store_async ("conn-async", "DynoTable: async", SECRET_B, TOKEN_A, NULL, store_cb,
                            &stored);
  while (!stored)
    g_main_context_iteration (NULL, TRUE);
  dyno_keyring_lookup_async ("conn-async", NULL, lookup_cb, &secret);
  while (secret == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpstr (secret->secret_access_key, ==, SECRET_B);
  g_assert_cmpstr (secret->session_token, ==, TOKEN_A);
  dyno_keyring_delete_async ("conn-async", NULL, delete_cb, &deleted);
  while (!deleted)
    g_main_context_iteration (NULL, TRUE);
  dyno_keyring_lookup_async ("conn-async", NULL, missing_cb, &missing);
  while (!missing)
    g_main_context_iteration (NULL, TRUE);
}

/* ---- nothing outside the keyring's own store -------------------------------------------- */

typedef struct {
  gint64 mtime;
  goffset size;
} FileStamp;

static void
collect_files (const char *root,
               const char *skip,
               GHashTable *files)
{
  g_autoptr(GDir) dir = g_dir_open (root, 0, NULL);
  const char *name;

  if (dir == NULL)
    return;
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (root, name, NULL);
      GStatBuf st;

      if (skip != NULL && g_str_equal (path, skip))
        continue;
      if (g_lstat (path, &st) != 0)
        continue;
      if (S_ISDIR (st.st_mode))
        collect_files (path, skip, files);
      else if (S_ISREG (st.st_mode))
        {
          FileStamp *stamp = g_new0 (FileStamp, 1);

          stamp->mtime = (gint64) st.st_mtime * G_USEC_PER_SEC + st.st_mtim.tv_nsec / 1000;
          stamp->size = st.st_size;
          g_hash_table_insert (files, g_steal_pointer (&path), stamp);
        }
    }
}

static gboolean
file_contains (const char *path,
               const char *needle)
{
  g_autofree char *contents = NULL;
  gsize len = 0;

  if (!g_file_get_contents (path, &contents, &len, NULL))
    return FALSE;
  gsize needle_len = strlen (needle);

  for (gsize i = 0; i + needle_len <= len; i++)
    if (contents[i] == needle[0] && memcmp (contents + i, needle, needle_len) == 0)
      return TRUE;
  return FALSE;
}

static GHashTable *
snapshot (const char * const *roots,
          const char         *keyrings)
{
  GHashTable *files = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);

  for (guint i = 0; roots[i] != NULL; i++)
    collect_files (roots[i], keyrings, files);
  return files;
}

static void
test_no_files_outside_keyring (void)
{
  g_autofree char *keyrings = NULL;
  g_autoptr(GHashTable) before = NULL;
  g_autoptr(GHashTable) after = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(DynoKeyringSecret) secret = NULL;
  g_autofree char *cwd = g_get_current_dir ();
  const char *roots[] = {
    g_get_home_dir (), g_get_user_data_dir (), g_get_user_config_dir (), g_get_user_cache_dir (),
    g_get_user_runtime_dir (), NULL
  };
  GHashTableIter iter;
  gpointer key;
  gpointer value;
  /* Made at run time, so that the test program itself does not contain them. */
  g_autofree char *secret_marker = g_strdup_printf ("dyno-secret-%08x%08x", g_random_int (),
                                                    g_random_int ());
  g_autofree char *token_marker = g_strdup_printf ("dyno-token-%08x%08x", g_random_int (),
                                                   g_random_int ());
  g_autofree char *full_secret = g_strconcat ("SECRET/", secret_marker, NULL);
  g_autofree char *full_token = g_strconcat ("TOKEN/", token_marker, NULL);

  if (skip_without_service ())
    return;
  /* Only meaningful in the private HOME of with-keyring.sh, never in a person's own. */
  if (g_getenv ("DBUS_SESSION_BUS_ADDRESS") == NULL
      || strstr (g_get_home_dir (), "dyno-keyring.") == NULL)
    {
      g_test_skip ("not inside tests/fixtures/with-keyring.sh");
      return;
    }

  keyrings = g_build_filename (g_get_user_data_dir (), "keyrings", NULL);
  before = snapshot (roots, keyrings);

  g_assert_true (dyno_keyring_store_sync ("conn-files", "DynoTable: files", full_secret,
                                          full_token, NULL, &error));
  g_assert_no_error (error);
  secret = dyno_keyring_lookup_sync ("conn-files", NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (secret->secret_access_key, ==, full_secret);

  after = snapshot (roots, keyrings);
  g_hash_table_iter_init (&iter, after);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      FileStamp *now = value;
      FileStamp *then = g_hash_table_lookup (before, key);

      if (then == NULL || then->mtime != now->mtime || then->size != now->size)
        g_error ("%s was written while storing a secret; only %s may change", (char *) key,
                 keyrings);
    }

  /* No file anywhere in these places, the keyring's own included, holds the secret in
   * plain text (the login keyring is encrypted). */
  g_hash_table_remove_all (after);
  for (guint i = 0; roots[i] != NULL; i++)
    collect_files (roots[i], NULL, after);
  collect_files (cwd, NULL, after);
  g_hash_table_iter_init (&iter, after);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      g_assert_false (file_contains (key, secret_marker));
      g_assert_false (file_contains (key, token_marker));
    }

  g_assert_true (dyno_keyring_delete_sync ("conn-files", NULL, &error));
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SecretService) service = NULL;

  g_test_init (&argc, &argv, NULL);

  if (g_getenv ("DBUS_SESSION_BUS_ADDRESS") != NULL)
    {
      service = secret_service_get_sync (SECRET_SERVICE_NONE, NULL, &error);
      have_service = service != NULL;
    }

  g_test_add_func ("/keyring/store-lookup", test_store_lookup);
  g_test_add_func ("/keyring/session-token", test_session_token);
  g_test_add_func ("/keyring/overwrite", test_overwrite);
  g_test_add_func ("/keyring/delete-and-missing", test_delete_and_missing);
  g_test_add_func ("/keyring/async", test_async);
  g_test_add_func ("/keyring/no-files-outside-keyring", test_no_files_outside_keyring);

  return g_test_run ();
}
