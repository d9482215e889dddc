/* fuzz-partiql.c: fuzzes the PartiQL parser (dyno-partiql.h) and what the engine does with
 * its result: print the WHERE, the UPDATE's clauses and the projection with placeholders and
 * parse them back as DynamoDB expressions
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Built with -fsanitize=fuzzer and -DDYNO_LIBFUZZER it is a libFuzzer target.  Otherwise main()
 * runs every file named on the command line, and with `--mutate N SEED...` also N
 * deterministic random mutations of the seed files.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dyno-json.h"
#include "dyno-partiql.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

static GHashTable *
printer_names (DynoExprPrinter *printer)
{
  GHashTable *names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);

  for (guint i = 0; i < dyno_expr_printer_get_n_names (printer); i++)
    {
      const char *placeholder, *name;

      dyno_expr_printer_get_name (printer, i, &placeholder, &name);
      g_hash_table_insert (names, g_strdup (placeholder), g_strdup (name));
    }
  return names;
}

static GHashTable *
printer_values (DynoExprPrinter *printer)
{
  GHashTable *values = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                              (GDestroyNotify) dyno_value_free);

  for (guint i = 0; i < dyno_expr_printer_get_n_values (printer); i++)
    {
      const char *placeholder;
      const DynoValue *value;

      dyno_expr_printer_get_value (printer, i, &placeholder, &value);
      g_hash_table_insert (values, g_strdup (placeholder), dyno_value_copy (value));
    }
  return values;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autofree char *text = g_strndup ((const char *) data, size);
  g_autoptr(GPtrArray) params = g_ptr_array_new_with_free_func ((GDestroyNotify) dyno_value_free);
  g_autoptr(GError) error = NULL;
  g_autoptr(DynoPartiqlStatement) st = NULL;
  g_autoptr(DynoExprPrinter) printer = NULL;
  g_autoptr(GHashTable) names = NULL;
  g_autoptr(GHashTable) values = NULL;
  g_autofree char *where = NULL;
  g_autofree char *update = NULL;
  g_autofree char *projection = NULL;

  if (!g_utf8_validate (text, -1, NULL))
    return 0;  /* a request's Statement is a JSON string: UTF-8 */
  g_ptr_array_add (params, dyno_value_new_string ("p", -1));
  g_ptr_array_add (params, dyno_value_new_number ("7", -1, NULL));
  st = dyno_partiql_parse (text, params, NULL, &error);
  if (st == NULL)
    {
      g_assert_nonnull (error);
      g_assert_true (error->domain == DYNO_ERROR);
      g_assert_true (error->code == DYNO_ERROR_SYNTAX || error->code == DYNO_ERROR_VALIDATION);
      g_assert_true (error->code != DYNO_ERROR_SYNTAX
                     || g_str_has_prefix (error->message,
                                          "Statement wasn't well formed, can't be processed: "));
      return 0;
    }
  g_assert_no_error (error);
  g_assert_nonnull (st->table);
  g_assert_true (st->kind != DYNO_PARTIQL_INSERT
                 || dyno_value_get_kind (st->item) == DYNO_VALUE_M);

  /* what the engine sends on: every name aliased, every value a placeholder */
  printer = dyno_expr_printer_new ();
  dyno_expr_printer_set_alias_all (printer, TRUE);
  if (st->where)
    where = dyno_expr_printer_print_condition (printer, st->where);
  if (st->update)
    update = dyno_expr_printer_print_update (printer, st->update);
  if (st->projection)
    projection = dyno_expr_printer_print_projection (printer, st->projection);
  names = printer_names (printer);
  values = printer_values (printer);
  if (where)
    {
      g_autoptr(DynoExpr) back = dyno_expr_parse_condition (where, DYNO_SYNTAX_DYNAMODB,
                                                            DYNO_EXPR_ROLE_FILTER, names,
                                                            values, NULL, NULL, &error);

      if (back == NULL)
        g_error ("printed WHERE does not parse back: %s (%s)", where, error->message);
    }
  if (update)
    {
      g_autoptr(DynoUpdate) back = dyno_expr_parse_update (update, DYNO_SYNTAX_DYNAMODB, names,
                                                           values, NULL, NULL, &error);

      if (back == NULL)
        g_error ("printed update does not parse back: %s (%s)", update, error->message);
    }
  if (projection)
    {
      g_autoptr(GPtrArray) back = dyno_expr_parse_projection (projection, DYNO_SYNTAX_DYNAMODB,
                                                              names, NULL, NULL, &error);

      if (back == NULL)
        g_error ("printed projection does not parse back: %s (%s)", projection,
                 error->message);
    }
  return 0;
}

#ifndef DYNO_LIBFUZZER
static const char *const dictionary[] = {
  "SELECT ", "INSERT INTO ", "UPDATE ", "DELETE FROM ", " FROM ", " WHERE ", " VALUE ",
  " SET ", " REMOVE ", " AND ", " OR ", "NOT ", " BETWEEN ", " IN ", " IS ", "MISSING",
  "NULL", " ORDER BY ", " DESC", " RETURNING ALL OLD *", "(", ")", "[", "]", "{", "}", "<<",
  ">>", ",", ".", "'", "''", "\"", "?", "=", "<>", "<", ">=", "+", "-", "*", ";", ":",
  "size(", "begins_with(", "contains(", "attribute_exists(", "list_append(", "set_add(",
  "if_not_exists(", "'a'", "1", "1e3", "-2.5", "true", "null", "pk", "sk", "value", "é", " ",
};

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

      switch (g_rand_int_range (rand, 0, 4))
        {
        case 0:
          if (pos < out->len)
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
      LLVMFuzzerTestOneInput ((const guint8 *) contents, len);
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

          LLVMFuzzerTestOneInput ((const guint8 *) input->str, input->len);
          g_string_free (input, TRUE);
        }
    }
  g_print ("ran %d files and %u mutations\n", argc - first, iterations);
  return 0;
}
#endif
