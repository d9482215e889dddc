/* test-codegen-corpus.c: every code target's output for a corpus of requests, held byte for
 * byte against outputs recorded before the emitters were rewritten around one walker
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * tests/data/codegen-corpus/cases.txt holds the requests (every operation, every value type,
 * empty and nested containers, long and many keys, control, bidi, NUL and non-ASCII text, big
 * numbers); <target>.txt holds, for each request and each set of options, what
 * dyno_codegen_emit() gave.  A change to an emitter that changes its output fails here with
 * the first line that differs; an intended change records the corpus again:
 *
 *   DYNO_CODEGEN_CORPUS_WRITE=$PWD/tests/data/codegen-corpus _build/tests/test-codegen-corpus
 */
#include "config.h"

#include <string.h>

#include "dyno-codegen.h"
#include "dyno-request.h"

typedef struct {
  const char         *name;
  DynoCodegenOptions  options;
} Form;

static const Form forms[] = {
  { "snippet", { FALSE, NULL, NULL, NULL } },
  { "snippet-options", { FALSE, "http://localhost:8000", "eu-west-3", "dev" } },
  { "program-local", { TRUE, "http://127.0.0.1:8000", "eu-west-3", NULL } },
  { "program-region-profile", { TRUE, NULL, "us-east-1", "it's \"me\" $x" } },
  { "program-https-profile", { TRUE, "https://dynamodb.example.com", NULL, "ops" } },
};

typedef struct {
  char          *name;
  DynoRequest   *request;
} CorpusCase;

static void
corpus_case_clear (gpointer data)
{
  CorpusCase *c = data;

  g_free (c->name);
  dyno_request_free (c->request);
}

static GArray *
load_cases (void)
{
  g_autofree char *path = g_build_filename (TEST_SRCDIR, "data", "codegen-corpus",
                                                 "cases.txt", NULL);
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) lines = NULL;
  GArray *cases = g_array_new (FALSE, TRUE, sizeof (CorpusCase));

  g_array_set_clear_func (cases, corpus_case_clear);
  g_file_get_contents (path, &text, NULL, &error);
  g_assert_no_error (error);
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_auto(GStrv) fields = NULL;
      CorpusCase c = { NULL, NULL };
      DynoOperation op;

      if (lines[i][0] == '\0' || lines[i][0] == '#')
        continue;
      fields = g_strsplit (lines[i], "\t", 3);
      g_assert_cmpuint (g_strv_length (fields), ==, 3);
      g_assert_true (dyno_operation_from_string (fields[1], &op));
      c.name = g_strdup (fields[0]);
      c.request = dyno_request_from_json (fields[2], -1, op, &error);
      if (c.request == NULL)
        g_error ("case %s: %s", c.name, error->message);
      g_array_append_val (cases, c);
    }
  g_assert_cmpuint (cases->len, >=, 30);
  return cases;
}

/* Every case in every form, one block each: a header with the output's length, then the
 * output, or the error's code and message. */
static char *
render_target (GArray     *cases,
               const char *target)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < cases->len; i++)
    {
      const CorpusCase *c = &g_array_index (cases, CorpusCase, i);

      for (guint f = 0; f < G_N_ELEMENTS (forms); f++)
        {
          g_autoptr(GError) error = NULL;
          g_autofree char *code = dyno_codegen_emit (c->request, target, &forms[f].options,
                                                     &error);

          if (code == NULL)
            {
              g_assert_nonnull (error);
              g_string_append_printf (out, "=== %s %s: error %d\n%s\n", c->name, forms[f].name,
                                      error->code, error->message);
              continue;
            }
          g_assert_no_error (error);
          g_string_append_printf (out, "=== %s %s: %" G_GSIZE_FORMAT " bytes\n%s\n", c->name,
                                  forms[f].name, strlen (code), code);
        }
    }
  return g_string_free (out, FALSE);
}

static void
report_first_difference (const char *target,
                         const char *expected,
                         const char *actual)
{
  g_auto(GStrv) want = g_strsplit (expected, "\n", -1);
  g_auto(GStrv) got = g_strsplit (actual, "\n", -1);
  const char *block = "(start)";

  for (guint i = 0; want[i] != NULL || got[i] != NULL; i++)
    {
      if (want[i] != NULL && g_str_has_prefix (want[i], "=== "))
        block = want[i];
      if (want[i] == NULL || got[i] == NULL || strcmp (want[i], got[i]) != 0)
        {
          g_test_message ("%s: first difference at line %u, in block %s\n"
                          "  expected: %s\n  actual:   %s",
                          target, i + 1, block, want[i] ? want[i] : "(end)",
                          got[i] ? got[i] : "(end)");
          return;
        }
    }
}

static void
test_target (gconstpointer data)
{
  const char *target = data;
  g_autoptr(GArray) cases = load_cases ();
  g_autofree char *actual = render_target (cases, target);
  g_autofree char *file = g_strdup_printf ("%s.txt", target);
  const char *write_dir = g_getenv ("DYNO_CODEGEN_CORPUS_WRITE");
  g_autofree char *path = NULL;
  g_autofree char *expected = NULL;
  g_autoptr(GError) error = NULL;

  if (write_dir != NULL)
    {
      g_autofree char *out_path = g_build_filename (write_dir, file, NULL);

      g_file_set_contents (out_path, actual, -1, &error);
      g_assert_no_error (error);
      return;
    }

  path = g_build_filename (TEST_SRCDIR, "data", "codegen-corpus", file, NULL);
  g_file_get_contents (path, &expected, NULL, &error);
  g_assert_no_error (error);
  if (strcmp (expected, actual) != 0)
    {
      g_autofree char *got_path = g_build_filename (g_get_tmp_dir (), file, NULL);

      report_first_difference (target, expected, actual);
      if (g_file_set_contents (got_path, actual, -1, NULL))
        g_test_message ("the actual output is in %s", got_path);
      g_test_fail ();
    }
}

int
main (int    argc,
      char **argv)
{
  const char * const *targets;

  g_test_init (&argc, &argv, NULL);

  targets = dyno_codegen_list_targets ();
  g_assert_cmpuint (g_strv_length ((char **) targets), ==, 15);
  for (guint i = 0; targets[i] != NULL; i++)
    {
      g_autofree char *path = g_strdup_printf ("/codegen-corpus/%s", targets[i]);

      g_test_add_data_func (path, targets[i], test_target);
    }
  return g_test_run ();
}
