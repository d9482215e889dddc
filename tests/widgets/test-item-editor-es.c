/* test-item-editor-es.c: the item editor's error marker in Spanish
 *
 * The JSON readers' messages are translated; where the error is comes with the error itself
 * (dyno_error_get_location()), never from its text.  Run under tests/fixtures/with-locale.sh
 * es_ES.UTF-8, with DYNO_TEST_LOCALEDIR naming the build's compiled catalogues.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>
#include <glib/gi18n-lib.h>
#include <gtksourceview/gtksource.h>
#include <locale.h>
#include <string.h>

#include "dyno-item-editor.h"
#include "dyno-table-info.h"
#include "test-backend.h"
#include "widget-test-util.h"

#define ENGLISH_MESSAGE "Invalid JSON at line %u, column %u: %s"

static GtkWidget *
open_editor (TestBackend   *backend,
             DynoTableInfo *info)
{
  GtkWidget *editor = dyno_item_editor_new (NULL, DYNO_BACKEND (backend), info, NULL,
                                            DYNO_ITEM_EDITOR_NEW, NULL,
                                            "http://localhost:8000", "us-east-1");

  g_object_ref_sink (editor);
  gtk_window_present (GTK_WINDOW (editor));
  drain_main_context ();
  return editor;
}

static gboolean
line_marked (GtkWidget *editor,
             guint      line)   /* 1-based */
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (get_named (editor,
                                                                              "source_view")));
  GtkTextTag *tag = gtk_text_tag_table_lookup (gtk_text_buffer_get_tag_table (buffer),
                                               "dyno-error-line");
  GtkTextIter iter;

  g_assert_nonnull (tag);
  g_assert_true (gtk_text_buffer_get_iter_at_line (buffer, &iter, (int) line - 1));
  return gtk_text_iter_has_tag (&iter, tag);
}

/* The catalogue is really in use: otherwise the test below would prove nothing. */
static void
test_catalogue_in_use (void)
{
  const char *translated = g_dgettext (GETTEXT_PACKAGE, ENGLISH_MESSAGE);

  g_assert_cmpstr (setlocale (LC_MESSAGES, NULL), ==, "es_ES.UTF-8");
  g_assert_cmpstr (translated, !=, ENGLISH_MESSAGE);
  g_assert_nonnull (strstr (translated, "%u"));
}

static void
test_marker_in_spanish (void)
{
  g_autoptr(TestBackend) backend = test_backend_new ();
  g_autoptr(DynoTableInfo) info = dyno_table_info_new ("orders", "pk", DYNO_VALUE_S, "sk",
                                                       DYNO_VALUE_S);
  g_autoptr(GtkWidget) editor = open_editor (backend, info);
  /* the colon after "sk" is missing on line 4; the message's words and numbers are Spanish
   * ("línea 4, columna …"), which a parser of English text would not find */
  const char *bad = "{\n  \"pk\": {\"S\": \"USER#1\"},\n\n  \"sk\": {\"S\" \"A\"}\n}\n";
  g_autofree char *expected_start = g_strdup_printf (g_dgettext (GETTEXT_PACKAGE,
                                                                 ENGLISH_MESSAGE),
                                                     4, 1, "");
  g_autofree char *expected_prefix = g_strndup (expected_start,
                                                strstr (expected_start, "4") - expected_start + 1);
  const char *message;

  dyno_item_editor_set_text (DYNO_ITEM_EDITOR (editor), bad);
  drain_main_context ();

  message = shown_error (get_named (editor, "item_error_label"));
  g_assert_nonnull (message);
  g_test_message ("shown: %s", message);
  g_assert_null (strstr (message, "line 4"));
  /* the translated sentence up to its line number */
  g_assert_true (g_str_has_prefix (message, expected_prefix));
  g_assert_false (gtk_widget_get_sensitive (get_named (editor, "save_button")));

  g_assert_true (line_marked (editor, 4));
  g_assert_false (line_marked (editor, 2));
  g_assert_false (line_marked (editor, 3));

  /* a bad number is found by value, not by its text: the mark moves to its line */
  dyno_item_editor_set_text (DYNO_ITEM_EDITOR (editor),
                             "{\n\"pk\": {\"S\": \"a\"},\n\"sk\": {\"S\": \"b\"},\n"
                             "\"n\": {\"N\": \"1e999\"}\n}");
  drain_main_context ();
  g_assert_nonnull (shown_error (get_named (editor, "item_error_label")));
  g_assert_true (line_marked (editor, 4));
  g_assert_false (line_marked (editor, 1));

  gtk_window_destroy (GTK_WINDOW (editor));
  drain_main_context ();
}

int
main (int    argc,
      char **argv)
{
  const char *localedir = g_getenv ("DYNO_TEST_LOCALEDIR");

  gtk_test_init (&argc, &argv, NULL);
  /* gtk_test_init() sets the C locale; this test is about the one the environment names */
  setlocale (LC_ALL, "");
  adw_init ();
  gtk_source_init ();
  if (localedir != NULL)
    bindtextdomain (GETTEXT_PACKAGE, localedir);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");

  g_test_add_func ("/item-editor-es/catalogue-in-use", test_catalogue_in_use);
  g_test_add_func ("/item-editor-es/error-marker", test_marker_in_spanish);

  return g_test_run ();
}
