/* main.c: dynotable
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <locale.h>

#include "dyno-application.h"

/* Without its compiled settings schema GSettings aborts the process at the first window;
 * say what is wrong instead, where the user started the program. */
static gboolean
settings_schema_is_installed (void)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = NULL;

  if (source != NULL)
    schema = g_settings_schema_source_lookup (source, APP_ID, TRUE);

  return schema != NULL;
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(DynoApplication) app = NULL;

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  g_set_application_name ("DynoTable");

  if (!settings_schema_is_installed ())
    {
      const char *dir = g_getenv ("GSETTINGS_SCHEMA_DIR");

      g_printerr (_("dynotable: the settings schema %s is not installed, so DynoTable cannot "
                    "start.\n"), APP_ID);
      if (dir != NULL)
        g_printerr (_("dynotable: GSETTINGS_SCHEMA_DIR is “%s”, which has no compiled schema "
                      "for DynoTable.\n"), dir);
      g_printerr (_("dynotable: run the build with “meson devenv -C BUILD-DIR dynotable” (or "
                    "tools/run-app.sh), or install it with “meson install”, which compiles the "
                    "schema.\n"));
      return 1;
    }
  app = dyno_application_new ();

  return g_application_run (G_APPLICATION (app), argc, argv);
}
