/* fuzz-expr-common.h: the body shared by the two expression fuzz targets
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * fuzz-expr-dynamodb.c and fuzz-expr-inline.c define FUZZ_EXPR_SYNTAX (the syntax their
 * input is parsed in) and FUZZ_EXPR_DICTIONARY (the tokens the mutation driver splices in),
 * then include this.  Built with -fsanitize=fuzzer and -DDYNO_LIBFUZZER it is a libFuzzer
 * target.  Otherwise main() runs every file named on the command line, and with
 * `--mutate N SEED...` also N deterministic random mutations of the seed files.
 */
#pragma once

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "dyno-expr.h"
#include "dyno-json.h"
#include "dyno-request.h"

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

static GHashTable *fuzz_names;
static GHashTable *fuzz_values;
static DynoTableInfo *fuzz_schema;

static void
fuzz_setup (void)
{
  static const char *const names[] = {
    "#a", "a", "#b", "status", "#c", "order-date", "#d", "a.b", "#e", "1st", "#pk", "pk",
    "#sk", "sk", "#0", "日付",
  };
  static const char *const values[] = {
    ":a", "{\"S\":\"a\"}", ":b", "{\"N\":\"1\"}", ":c", "{\"B\":\"AAE=\"}", ":d",
    "{\"SS\":[\"x\"]}", ":e", "{\"L\":[]}", ":f", "{\"BOOL\":true}", ":g", "{\"NULL\":true}",
    ":h", "{\"S\":\"\"}", ":t", "{\"S\":\"SS\"}", ":n", "{\"N\":\"-9.5e10\"}", ":m",
    "{\"M\":{\"k\":{\"S\":\"v\"}}}", ":0", "{\"S\":\"z\"}",
  };

  if (fuzz_names != NULL)
    return;
  fuzz_names = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint i = 0; i < G_N_ELEMENTS (names); i += 2)
    g_hash_table_insert (fuzz_names, (gpointer) names[i], (gpointer) names[i + 1]);
  fuzz_values = g_hash_table_new_full (g_str_hash, g_str_equal, NULL,
                                       (GDestroyNotify) dyno_value_free);
  for (guint i = 0; i < G_N_ELEMENTS (values); i += 2)
    g_hash_table_insert (fuzz_values, (gpointer) values[i],
                         dyno_value_from_ddb_json (values[i + 1], -1, NULL));
  fuzz_schema = dyno_table_info_new ("T", "pk", DYNO_VALUE_S, "sk", DYNO_VALUE_N);
}

static void
fill_maps (DynoExprPrinter *printer,
           GHashTable      *names,
           GHashTable      *values)
{
  for (guint i = 0; i < dyno_expr_printer_get_n_names (printer); i++)
    {
      const char *placeholder, *name;

      dyno_expr_printer_get_name (printer, i, &placeholder, &name);
      g_hash_table_insert (names, g_strdup (placeholder), g_strdup (name));
    }
  for (guint i = 0; i < dyno_expr_printer_get_n_values (printer); i++)
    {
      const char *placeholder;
      const DynoValue *value;

      dyno_expr_printer_get_value (printer, i, &placeholder, &value);
      g_hash_table_insert (values, g_strdup (placeholder), dyno_value_copy (value));
    }
}

/* Whatever parses must print and parse back to the same tree, in both syntaxes. */
static void
check_condition (const DynoExpr *expr)
{
  g_autoptr(DynoExprPrinter) printer = dyno_expr_printer_new ();
  g_autoptr(GHashTable) names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr(GHashTable) values = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                        (GDestroyNotify) dyno_value_free);
  g_autofree char *text = dyno_expr_printer_print_condition (printer, expr);
  g_autofree char *inline_text = dyno_expr_to_inline (expr);
  g_autoptr(DynoExpr) back = NULL;
  g_autoptr(DynoExpr) back_inline = NULL;
  g_autoptr(GError) error = NULL;

  fill_maps (printer, names, values);
  back = dyno_expr_parse_condition (text, DYNO_SYNTAX_DYNAMODB, DYNO_EXPR_ROLE_FILTER, names,
                                    values, NULL, NULL, &error);
  if (back == NULL || !dyno_expr_equal (expr, back))
    g_error ("printed text does not parse back: %s (%s)", text,
             error != NULL ? error->message : "different tree");
  back_inline = dyno_expr_parse_condition (inline_text, DYNO_SYNTAX_INLINE,
                                           DYNO_EXPR_ROLE_FILTER, NULL, NULL, NULL, NULL,
                                           &error);
  if (back_inline == NULL || !dyno_expr_equal (expr, back_inline))
    g_error ("inline text does not parse back: %s (%s)", inline_text,
             error != NULL ? error->message : "different tree");
}

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  g_autofree char *text = NULL;
  DynoParseLocation loc;

  fuzz_setup ();
  if (size > 64 * 1024)
    return 0;
  text = g_strndup ((const char *) data, size);

  for (int role = DYNO_EXPR_ROLE_KEY_CONDITION; role <= DYNO_EXPR_ROLE_CONDITION; role++)
    {
      g_autoptr(GHashTable) used = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      g_autoptr(GError) error = NULL;
      g_autoptr(DynoExpr) expr = dyno_expr_parse_condition (text, FUZZ_EXPR_SYNTAX,
                                                            (DynoExprRole) role, fuzz_names,
                                                            fuzz_values, used, &loc, &error);

      g_assert ((expr == NULL) == (error != NULL));
      if (expr == NULL)
        {
          g_assert (loc.offset <= size);
          continue;
        }
      check_condition (expr);
      if (role == DYNO_EXPR_ROLE_KEY_CONDITION)
        {
          g_autoptr(DynoRequest) request = dyno_request_new (DYNO_OP_QUERY, "T");
          g_autoptr(GPtrArray) issues = NULL;
          g_autoptr(GPtrArray) issues2 = NULL;

          request->key_condition = dyno_expr_copy (expr);
          request->filter = dyno_expr_copy (expr);
          issues = dyno_request_validate (request, fuzz_schema);
          issues2 = dyno_request_validate (request, NULL);
          for (guint i = 0; i < issues->len; i++)
            {
              const DynoIssue *issue = g_ptr_array_index (issues, i);

              g_assert (issue->message != NULL && issue->field != NULL);
              g_assert (!issue->has_location ||
                        issue->location.offset + issue->location.length <= size);
            }
        }
    }
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(GPtrArray) paths = dyno_expr_parse_projection (text, FUZZ_EXPR_SYNTAX,
                                                             fuzz_names, NULL, &loc, &error);

    if (paths != NULL)
      {
        g_autoptr(DynoExprPrinter) printer = dyno_expr_printer_new ();
        g_autoptr(GHashTable) names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                             g_free);
        g_autoptr(GHashTable) values = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                              (GDestroyNotify) dyno_value_free);
        g_autofree char *printed = dyno_expr_printer_print_projection (printer, paths);
        g_autoptr(GPtrArray) back = NULL;
        g_autoptr(DynoRequest) request = dyno_request_new (DYNO_OP_SCAN, "T");
        g_autoptr(GPtrArray) issues = NULL;

        fill_maps (printer, names, values);
        back = dyno_expr_parse_projection (printed, DYNO_SYNTAX_DYNAMODB, names, NULL, NULL,
                                           &error);
        if (back == NULL)
          g_error ("printed projection does not parse back: %s (%s)", printed, error->message);
        if (back->len != paths->len)
          g_error ("printed projection %s has %u paths, not %u", printed, back->len, paths->len);
        request->projection = g_ptr_array_ref (paths);
        issues = dyno_request_validate (request, fuzz_schema);
      }
  }
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(DynoUpdate) update = dyno_expr_parse_update (text, FUZZ_EXPR_SYNTAX,
                                                           fuzz_names, fuzz_values, NULL, &loc,
                                                           &error);

    if (update != NULL)
      {
        g_autoptr(DynoExprPrinter) printer = dyno_expr_printer_new ();
        g_autoptr(GHashTable) names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                             g_free);
        g_autoptr(GHashTable) values = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                              (GDestroyNotify) dyno_value_free);
        g_autofree char *printed = dyno_expr_printer_print_update (printer, update);
        g_autoptr(DynoUpdate) back = NULL;
        g_autoptr(DynoRequest) request = dyno_request_new (DYNO_OP_UPDATE_ITEM, "T");
        g_autoptr(GPtrArray) issues = NULL;

        fill_maps (printer, names, values);
        back = dyno_expr_parse_update (printed, DYNO_SYNTAX_DYNAMODB, names, values, NULL, NULL,
                                       &error);
        if (back == NULL)
          g_error ("printed update does not parse back: %s (%s)", printed, error->message);
        request->update = dyno_update_copy (update);
        issues = dyno_request_validate (request, fuzz_schema);
      }
  }
  return 0;
}

#ifndef DYNO_LIBFUZZER
static const char *const dictionary[] = { FUZZ_EXPR_DICTIONARY };

static void
run_bytes (const char *data,
           gsize       len)
{
  LLVMFuzzerTestOneInput ((const guint8 *) data, len);
}

static GString *
mutate (GRand      *rand,
        const char *seed,
        gsize       len)
{
  GString *out = g_string_new_len (seed, len);
  int n = g_rand_int_range (rand, 1, 6);

  for (int i = 0; i < n; i++)
    {
      gsize pos = out->len > 0 ? (gsize) g_rand_int_range (rand, 0, (gint32) out->len + 1) : 0;

      switch (g_rand_int_range (rand, 0, 5))
        {
        case 0:
          if (out->len > 0 && pos < out->len)
            {
              gsize n_erase = (gsize) g_rand_int_range (rand, 1, 8);

              g_string_erase (out, pos, MIN (n_erase, out->len - pos));
            }
          break;
        case 1:
          g_string_insert (out, pos,
                           dictionary[g_rand_int_range (rand, 0, G_N_ELEMENTS (dictionary))]);
          break;
        case 2:
          if (pos < out->len)
            out->str[pos] = (char) g_rand_int_range (rand, 1, 256);
          break;
        case 3:
          if (out->len > 1)
            {
              gsize from = (gsize) g_rand_int_range (rand, 0, (gint32) out->len);
              gsize n_want = (gsize) g_rand_int_range (rand, 1, 16);
              gsize n_copy = MIN (n_want, out->len - from);
              g_autofree char *piece = g_strndup (out->str + from, n_copy);

              g_string_insert (out, pos, piece);
            }
          break;
        default:
          g_string_insert_c (out, pos, (char) g_rand_int_range (rand, 32, 127));
          break;
        }
    }
  return out;
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GPtrArray) seeds = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  guint iterations = 0;
  int first = 1;

  if (argc > 2 && strcmp (argv[1], "--mutate") == 0)
    {
      iterations = (guint) strtoul (argv[2], NULL, 10);
      first = 3;
    }
  for (int i = first; i < argc; i++)
    {
      g_autofree char *contents = NULL;
      gsize len = 0;
      g_autoptr(GError) error = NULL;

      if (!g_file_get_contents (argv[i], &contents, &len, &error))
        {
          g_printerr ("%s\n", error->message);
          return 1;
        }
      run_bytes (contents, len);
      g_ptr_array_add (seeds, g_bytes_new (contents, len));
    }
  if (iterations > 0 && seeds->len > 0)
    {
      g_autoptr(GRand) rand = g_rand_new_with_seed (1234);

      for (guint i = 0; i < iterations; i++)
        {
          GBytes *seed = g_ptr_array_index (seeds, g_rand_int_range (rand, 0, seeds->len));
          gsize len = 0;
          const char *data = g_bytes_get_data (seed, &len);
          GString *input = mutate (rand, data, len);

          run_bytes (input->str, input->len);
          g_string_free (input, TRUE);
        }
    }
  g_print ("ran %d files and %u mutations\n", argc - first, iterations);
  return 0;
}
#endif
