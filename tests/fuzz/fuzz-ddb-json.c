/* fuzz-ddb-json.c: fuzz the DynamoDB JSON readers, the page parser and the writers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Built with -fsanitize=fuzzer, libFuzzer supplies main() and calls LLVMFuzzerTestOneInput.
 * Built without it, the main() below runs the entry point over the files named on the
 * command line (a corpus, or a crash to reproduce).  Define DYNO_FUZZING_ENGINE to leave
 * main() out altogether; otherwise it is weak, so an engine's main() wins.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>

#include "dyno-json.h"
#include "dyno-page.h"
#include "dyno-value.h"

int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);

/* Whatever was read must write out and read back as an equal value. */
static void
check_value (const DynoValue *value)
{
  g_autofree char *json = dyno_value_to_ddb_json (value);
  g_autoptr(GError) error = NULL;
  g_autoptr(DynoValue) again = dyno_value_from_ddb_json (json, -1, &error);
  GString *plain = g_string_new (NULL);

  if (again == NULL)
    g_error ("written DynamoDB JSON does not read back: %s\n%s", error->message, json);
  if (!dyno_value_equal (value, again) || dyno_value_compare (value, again) != 0 ||
      dyno_value_hash (value) != dyno_value_hash (again))
    g_error ("round trip changed the value: %s", json);
  if (dyno_value_get_size (value) != dyno_value_get_size (again))
    g_error ("round trip changed the size: %s", json);

  /* Plain JSON output must be valid JSON that our reader takes. */
  dyno_value_write_plain_json (value, plain);
  {
    g_autoptr(DynoValue) from_plain = dyno_value_from_plain_json (plain->str, plain->len,
                                                                  NULL, &error);
    if (from_plain == NULL)
      g_error ("written plain JSON does not read back: %s\n%s", error->message, plain->str);
  }
  g_string_free (plain, TRUE);
}

static void
check_item (const DynoItem *item)
{
  g_autofree char *json = dyno_item_to_ddb_json (item);
  g_autoptr(GError) error = NULL;
  g_autoptr(DynoItem) again = dyno_item_from_ddb_json (json, -1, &error);

  if (again == NULL)
    g_error ("written item does not read back: %s\n%s", error->message, json);
  if (!dyno_item_equal (item, again) || dyno_item_get_size (item) != dyno_item_get_size (again))
    g_error ("item round trip changed the item: %s", json);
  check_value (dyno_item_get_map (item));
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  const char *text = (const char *) data;

  {
    g_autoptr(DynoValue) value = dyno_value_from_ddb_json (text, size, NULL);
    if (value != NULL)
      check_value (value);
  }
  {
    g_autoptr(DynoItem) item = dyno_item_from_ddb_json (text, size, NULL);
    if (item != NULL)
      check_item (item);
  }
  {
    g_autoptr(DynoPage) page = dyno_page_parse (text, size, NULL);
    if (page != NULL)
      {
        for (guint i = 0; i < page->items->len; i++)
          check_item (g_ptr_array_index (page->items, i));
        if (page->last_evaluated_key != NULL)
          check_item (page->last_evaluated_key);
      }
  }
  {
    g_autoptr(DynoValue) value = dyno_value_from_plain_json (text, size, NULL, NULL);
    if (value != NULL)
      check_value (value);
  }

  return 0;
}

#ifndef DYNO_FUZZING_ENGINE
int main (int argc, char *argv[]) __attribute__ ((weak));

int
main (int   argc,
      char *argv[])
{
  int failures = 0;

  if (argc < 2)
    {
      g_printerr ("Usage: %s FILE…\nRuns the fuzz target once over each file.\n", argv[0]);
      return 2;
    }

  for (int i = 1; i < argc; i++)
    {
      g_autofree char *contents = NULL;
      gsize len = 0;
      g_autoptr(GError) error = NULL;

      if (!g_file_get_contents (argv[i], &contents, &len, &error))
        {
          g_printerr ("%s\n", error->message);
          failures++;
          continue;
        }
      LLVMFuzzerTestOneInput ((const uint8_t *) contents, len);
    }

  g_print ("ran %d input(s)\n", argc - 1 - failures);
  return failures ? 1 : 0;
}
#endif
