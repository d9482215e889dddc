/* fuzz-request-json.c: dyno_request_from_json() on arbitrary bytes
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Built with -DDYNO_LIBFUZZER and -fsanitize=fuzzer it is a libFuzzer target; without, main()
 * runs every file named on the command line (or every file in a directory) once, so a
 * corpus (tests/fuzz/corpus/request-json/, plain request JSON) can be replayed without
 * libFuzzer.
 *
 * Every accepted request must survive the round trip: emitted, read back (with the
 * operation it was read as) and equal to itself, and a second emission byte for byte the
 * first.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dyno-request.h"

int LLVMFuzzerTestOneInput (const guint8 *data,
                            size_t        size);

static void
check_round_trip (const DynoRequest *request)
{
  g_autofree char *first = dyno_request_to_json (request, FALSE);
  g_autofree char *second = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(DynoRequest) again = NULL;
  g_autoptr(DynoRequest) copy = dyno_request_copy (request);

  if (!dyno_request_equal (request, copy))
    g_error ("a copy differs from its original");

  again = dyno_request_from_json (first, -1, request->operation, &error);
  if (again == NULL)
    g_error ("emitted JSON was not read back: %s\n%s", error->message, first);
  if (!dyno_request_equal (request, again))
    g_error ("emitted JSON reads as another request:\n%s", first);

  second = dyno_request_to_json (again, FALSE);
  if (strcmp (first, second) != 0)
    g_error ("emitting is not a fixed point:\n%s\n%s", first, second);

  g_free (dyno_request_to_json (request, TRUE));
  dyno_printed_request_free (dyno_request_print (request));
}

static void
run_one (const guint8 *data,
         size_t        size,
         int           hint)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynoRequest) request = dyno_request_from_json ((const char *) data, size, hint,
                                                           &error);

  if (request == NULL)
    {
      if (error == NULL || error->domain != DYNO_ERROR || error->message[0] == '\0')
        g_error ("rejected without a DYNO_ERROR message");
      return;
    }

  if (error != NULL)
    g_error ("accepted with an error set");
  if (hint >= 0 && (int) request->operation != hint)
    g_error ("read as %s though the operation was given",
             dyno_operation_to_string (request->operation));

  check_round_trip (request);
}

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  /* The input is the JSON as is (seed files are plain request JSON); it is read once with
   * the operation guessed and once as each operation. */
  for (int hint = -1; hint <= DYNO_OP_DELETE_ITEM; hint++)
    run_one (data, size, hint);

  return 0;
}

#ifndef DYNO_LIBFUZZER
static void
run_file (const char *path)
{
  g_autofree char *contents = NULL;
  gsize length = 0;
  g_autoptr(GError) error = NULL;

  if (!g_file_get_contents (path, &contents, &length, &error))
    {
      fprintf (stderr, "%s\n", error->message);
      exit (1);
    }

  LLVMFuzzerTestOneInput ((const guint8 *) contents, length);
}

int
main (int    argc,
      char **argv)
{
  guint n = 0;

  for (int i = 1; i < argc; i++)
    {
      if (g_file_test (argv[i], G_FILE_TEST_IS_DIR))
        {
          g_autoptr(GDir) dir = g_dir_open (argv[i], 0, NULL);
          const char *name;

          while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
            {
              g_autofree char *path = g_build_filename (argv[i], name, NULL);

              if (g_file_test (path, G_FILE_TEST_IS_REGULAR))
                {
                  run_file (path);
                  n++;
                }
            }
        }
      else
        {
          run_file (argv[i]);
          n++;
        }
    }

  printf ("ran %u inputs\n", n);
  return 0;
}
#endif
