/* dyno-number.c: exact decimal numbers with DynamoDB's precision and range
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "dyno-number.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "dyno-error.h"
#include "dyno-number-private.h"

/* DynamoDB's range, as the decimal exponent of the first significant digit. */
#define MAX_EXPONENT 125
#define MIN_EXPONENT (-130)

/* A parsed decimal: value = (-1)^neg × digits × 10^exp, digits without leading or trailing
 * zeros (n == 0 means zero).  digits points into caller-provided storage. */
typedef struct {
  gboolean  neg;
  char     *digits;
  gsize     n;
  gint64    exp;
} Decimal;

static void
set_not_a_number (GError     **error,
                  const char  *text,
                  gsize        len)
{
  g_autofree char *shown = NULL;

  if (len == 0)
    {
      g_set_error_literal (error, DYNO_ERROR, DYNO_ERROR_INVALID_VALUE,
                           _("The parameter cannot be converted to a numeric value"));
      return;
    }

  /* Messages end up in the UI: keep them short and valid UTF-8. */
  shown = g_utf8_make_valid (text, MIN (len, 200));
  g_set_error (error, DYNO_ERROR, DYNO_ERROR_INVALID_VALUE,
               /* Translators: the text, then "…" when it was cut, or nothing. */
               _("The parameter cannot be converted to a numeric value: %s%s"),
               shown, len > 200 ? "\u2026" : "");
}

/* Parses @text into @out; @buf must hold @len bytes.  Only syntax is checked here. */
static gboolean
parse_decimal (const char  *text,
               gsize        len,
               char        *buf,
               Decimal     *out)
{
  const char *p = text;
  const char *end = text + len;
  gsize n = 0;
  gint64 frac_digits = 0;
  gboolean seen_digit = FALSE;
  gboolean seen_point = FALSE;
  gint64 exp = 0;

  out->neg = FALSE;
  out->digits = buf;
  out->n = 0;
  out->exp = 0;

  if (p < end && (*p == '-' || *p == '+'))
    {
      out->neg = (*p == '-');
      p++;
    }

  for (; p < end; p++)
    {
      char c = *p;

      if (c >= '0' && c <= '9')
        {
          seen_digit = TRUE;
          if (seen_point)
            frac_digits++;
          /* Leading zeros are not significant. */
          if (n == 0 && c == '0')
            continue;
          buf[n++] = c;
        }
      else if (c == '.' && !seen_point)
        seen_point = TRUE;
      else
        break;
    }

  if (!seen_digit)
    return FALSE;

  if (p < end && (*p == 'e' || *p == 'E'))
    {
      gboolean exp_neg = FALSE;
      gboolean exp_digit = FALSE;

      p++;
      if (p < end && (*p == '-' || *p == '+'))
        {
          exp_neg = (*p == '-');
          p++;
        }
      for (; p < end && *p >= '0' && *p <= '9'; p++)
        {
          exp_digit = TRUE;
          /* Saturate: anything this large is out of range anyway. */
          if (exp < G_GINT64_CONSTANT (1000000000000))
            exp = exp * 10 + (*p - '0');
        }
      if (!exp_digit)
        return FALSE;
      if (exp_neg)
        exp = -exp;
    }

  if (p != end)
    return FALSE;

  /* Leading zeros after the point were skipped but still count as fraction digits, which is
   * right: they shift the exponent. */
  exp -= frac_digits;

  while (n > 0 && buf[n - 1] == '0')
    {
      n--;
      exp++;
    }

  out->n = n;
  out->exp = exp;
  if (n == 0)
    out->neg = FALSE;

  return TRUE;
}

static gboolean
check_decimal (const Decimal  *d,
               GError        **error)
{
  gint64 first;

  if (d->n == 0)
    return TRUE;

  first = d->exp + (gint64) d->n - 1;
  if (first > MAX_EXPONENT)
    {
      g_set_error_literal (error, DYNO_ERROR, DYNO_ERROR_INVALID_VALUE,
                           _("Number overflow. Attempting to store a number with magnitude "
                             "larger than supported range"));
      return FALSE;
    }
  if (first < MIN_EXPONENT)
    {
      g_set_error_literal (error, DYNO_ERROR, DYNO_ERROR_INVALID_VALUE,
                           _("Number underflow. Attempting to store a number with magnitude "
                             "smaller than supported range"));
      return FALSE;
    }
  if (d->n > DYNO_NUMBER_MAX_DIGITS)
    {
      g_set_error_literal (error, DYNO_ERROR, DYNO_ERROR_INVALID_VALUE,
                           _("Attempting to store more than 38 significant digits in a Number"));
      return FALSE;
    }

  return TRUE;
}

/* Writes the canonical positional form of a checked decimal into @out, which holds
 * DYNO_NUMBER_TEXT_MAX bytes (sign + "0." + 129 zeros + 38 digits, or sign + 126 digits),
 * NUL-terminated.  Returns the length. */
static gsize
format_decimal (const Decimal *d,
                char          *out)
{
  char *o = out;
  gint64 point;

  if (d->n == 0)
    {
      memcpy (out, "0", 2);
      return 1;
    }

  if (d->neg)
    *o++ = '-';

  if (d->exp >= 0)
    {
      memcpy (o, d->digits, d->n);
      o += d->n;
      memset (o, '0', d->exp);
      o += d->exp;
    }
  else
    {
      /* Digits before the decimal point. */
      point = (gint64) d->n + d->exp;
      if (point > 0)
        {
          memcpy (o, d->digits, point);
          o += point;
          *o++ = '.';
          memcpy (o, d->digits + point, d->n - point);
          o += d->n - point;
        }
      else
        {
          *o++ = '0';
          *o++ = '.';
          memset (o, '0', -point);
          o += -point;
          memcpy (o, d->digits, d->n);
          o += d->n;
        }
    }

  *o = '\0';
  return o - out;
}

/* Recognises text that is already canonical and in range, which is what DynamoDB sends,
 * so pages are read without reformatting every number.  Returns FALSE for anything else;
 * the full parser then decides. */
static gboolean
is_canonical_fast (const char *text,
                   gsize       len)
{
  const char *p = text;
  const char *end = text + len;
  gsize int_digits = 0, frac_digits = 0, leading = 0, trailing = 0;
  gint64 first;
  gsize significant;

  if (len == 0 || len >= DYNO_NUMBER_TEXT_MAX)
    return FALSE;
  if (*p == '-')
    p++;
  if (p == end)
    return FALSE;

  if (*p == '0')
    {
      p++;
      if (p == end)
        return text[0] != '-';
      if (*p != '.')
        return FALSE;
    }
  else if (*p >= '1' && *p <= '9')
    {
      const char *from = p;

      while (p < end && *p >= '0' && *p <= '9')
        p++;
      int_digits = p - from;
      for (const char *q = p; q > from && q[-1] == '0'; q--)
        trailing++;
    }
  else
    return FALSE;

  if (p < end)
    {
      const char *from;

      if (*p != '.')
        return FALSE;
      from = ++p;
      while (p < end && *p >= '0' && *p <= '9')
        p++;
      if (p != end || p == from || p[-1] == '0')
        return FALSE;
      frac_digits = p - from;
      if (int_digits == 0)
        while (from[leading] == '0')
          leading++;
      trailing = 0;
    }

  if (int_digits > 0)
    {
      first = (gint64) int_digits - 1;
      significant = int_digits + frac_digits - trailing;
    }
  else
    {
      first = -(gint64) leading - 1;
      significant = frac_digits - leading;
    }

  return first <= MAX_EXPONENT && first >= MIN_EXPONENT &&
         significant <= DYNO_NUMBER_MAX_DIGITS;
}

gssize
_dyno_number_canonicalize_into (const char  *text,
                                gsize        len,
                                char        *out,
                                GError     **error)
{
  char stack_buf[256];
  g_autofree char *heap_buf = NULL;
  char *buf;
  Decimal d;

  if (is_canonical_fast (text, len))
    {
      memcpy (out, text, len);
      out[len] = '\0';
      return len;
    }

  if (len <= sizeof stack_buf)
    buf = stack_buf;
  else
    buf = heap_buf = g_malloc (len);

  if (!parse_decimal (text, len, buf, &d))
    {
      set_not_a_number (error, text, len);
      return -1;
    }
  if (!check_decimal (&d, error))
    return -1;

  return format_decimal (&d, out);
}

char *
dyno_number_canonicalize (const char  *text,
                          gssize       len,
                          GError     **error)
{
  char out[DYNO_NUMBER_TEXT_MAX];
  gssize out_len;

  g_return_val_if_fail (text != NULL || len == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (len < 0)
    len = strlen (text);

  out_len = _dyno_number_canonicalize_into (text != NULL ? text : "", len, out, error);
  if (out_len < 0)
    return NULL;

  return g_strndup (out, out_len);
}

gboolean
dyno_number_is_canonical (const char *text)
{
  g_autofree char *canonical = NULL;

  g_return_val_if_fail (text != NULL, FALSE);

  canonical = dyno_number_canonicalize (text, -1, NULL);
  return canonical != NULL && strcmp (canonical, text) == 0;
}

/* Compares the magnitudes of two canonical non-negative numbers (no sign). */
static int
compare_magnitude (const char *a,
                   const char *b)
{
  const char *pa = strchr (a, '.');
  const char *pb = strchr (b, '.');
  gsize ia = pa ? (gsize) (pa - a) : strlen (a);
  gsize ib = pb ? (gsize) (pb - b) : strlen (b);
  gsize fa, fb;
  int r;

  /* Integer parts have no leading zeros (except a lone "0"), so length orders them. */
  if (ia != ib)
    return ia < ib ? -1 : 1;
  r = memcmp (a, b, ia);
  if (r != 0)
    return r < 0 ? -1 : 1;

  /* Fractions have no trailing zeros, so a proper prefix is the smaller one. */
  a = pa ? pa + 1 : "";
  b = pb ? pb + 1 : "";
  fa = strlen (a);
  fb = strlen (b);
  r = memcmp (a, b, MIN (fa, fb));
  if (r != 0)
    return r < 0 ? -1 : 1;
  if (fa != fb)
    return fa < fb ? -1 : 1;
  return 0;
}

int
dyno_number_compare (const char *a,
                     const char *b)
{
  gboolean na, nb;

  g_return_val_if_fail (a != NULL, 0);
  g_return_val_if_fail (b != NULL, 0);

  na = a[0] == '-';
  nb = b[0] == '-';
  if (na != nb)
    return na ? -1 : 1;
  if (na)
    return -compare_magnitude (a + 1, b + 1);
  return compare_magnitude (a, b);
}

/* Exact addition on decimals parsed from canonical text.  The digit arrays are aligned on
 * the smaller exponent; canonical inputs keep them under ~260 digits. */
static char *
add_decimals (const Decimal  *x,
              const Decimal  *y,
              GError        **error)
{
  gint64 lo, hi_x, hi_y, hi;
  gsize width;
  g_autofree guint8 *ax = NULL;
  g_autofree guint8 *ay = NULL;
  g_autofree guint8 *r = NULL;
  g_autofree char *text = NULL;
  gboolean neg;
  int cmp = 0;
  gsize start;
  GString *s;

  if (x->n == 0 && y->n == 0)
    return g_strdup ("0");

  /* Positions are powers of ten; digit i of the arrays has weight 10^(lo + i). */
  lo = MIN (x->n ? x->exp : G_MAXINT64, y->n ? y->exp : G_MAXINT64);
  hi_x = x->n ? x->exp + (gint64) x->n - 1 : lo;
  hi_y = y->n ? y->exp + (gint64) y->n - 1 : lo;
  hi = MAX (hi_x, hi_y);
  width = (gsize) (hi - lo + 2);

  ax = g_malloc0 (width);
  ay = g_malloc0 (width);
  r = g_malloc0 (width);

  for (gsize i = 0; i < x->n; i++)
    ax[x->exp - lo + (x->n - 1 - i)] = x->digits[i] - '0';
  for (gsize i = 0; i < y->n; i++)
    ay[y->exp - lo + (y->n - 1 - i)] = y->digits[i] - '0';

  if (x->neg == y->neg)
    {
      int carry = 0;

      for (gsize i = 0; i < width; i++)
        {
          int v = ax[i] + ay[i] + carry;
          r[i] = v % 10;
          carry = v / 10;
        }
      neg = x->neg;
    }
  else
    {
      const guint8 *big, *small;
      int borrow = 0;

      for (gsize i = width; i-- > 0;)
        if (ax[i] != ay[i])
          {
            cmp = ax[i] < ay[i] ? -1 : 1;
            break;
          }
      if (cmp == 0)
        return g_strdup ("0");
      big = cmp > 0 ? ax : ay;
      small = cmp > 0 ? ay : ax;
      neg = cmp > 0 ? x->neg : y->neg;
      for (gsize i = 0; i < width; i++)
        {
          int v = big[i] - small[i] - borrow;
          borrow = v < 0;
          r[i] = v < 0 ? v + 10 : v;
        }
    }

  /* Write "<sign><digits>e<lo>" and let the canonicaliser check range and precision. */
  start = width;
  while (start > 0 && r[start - 1] == 0)
    start--;
  if (start == 0)
    return g_strdup ("0");

  s = g_string_sized_new (width + 24);
  if (neg)
    g_string_append_c (s, '-');
  for (gsize i = start; i-- > 0;)
    g_string_append_c (s, '0' + r[i]);
  g_string_append_printf (s, "e%" G_GINT64_FORMAT, lo);
  text = g_string_free (s, FALSE);

  return dyno_number_canonicalize (text, -1, error);
}

static char *
add_or_subtract (const char  *a,
                 const char  *b,
                 gboolean     subtract,
                 GError     **error)
{
  gsize la = strlen (a), lb = strlen (b);
  g_autofree char *ba = g_malloc (la + 1);
  g_autofree char *bb = g_malloc (lb + 1);
  Decimal x, y;

  if (!parse_decimal (a, la, ba, &x))
    {
      set_not_a_number (error, a, la);
      return NULL;
    }
  if (!parse_decimal (b, lb, bb, &y))
    {
      set_not_a_number (error, b, lb);
      return NULL;
    }
  /* Operands out of range would also make the aligned digit arrays huge. */
  if (!check_decimal (&x, error) || !check_decimal (&y, error))
    return NULL;
  if (subtract && y.n > 0)
    y.neg = !y.neg;

  return add_decimals (&x, &y, error);
}

char *
dyno_number_add (const char  *a,
                 const char  *b,
                 GError     **error)
{
  g_return_val_if_fail (a != NULL, NULL);
  g_return_val_if_fail (b != NULL, NULL);

  return add_or_subtract (a, b, FALSE, error);
}

char *
dyno_number_subtract (const char  *a,
                      const char  *b,
                      GError     **error)
{
  g_return_val_if_fail (a != NULL, NULL);
  g_return_val_if_fail (b != NULL, NULL);

  return add_or_subtract (a, b, TRUE, error);
}

gsize
dyno_number_get_size (const char *canonical)
{
  gsize len;
  char stack_buf[256];
  g_autofree char *heap_buf = NULL;
  char *buf;
  Decimal d;
  gint64 first;
  gsize size;

  g_return_val_if_fail (canonical != NULL, 0);

  len = strlen (canonical);
  if (len <= sizeof stack_buf)
    buf = stack_buf;
  else
    buf = heap_buf = g_malloc (len);
  if (!parse_decimal (canonical, len, buf, &d) || d.n == 0)
    return 1;

  /* DynamoDB stores base-100 digits: pairs aligned on even exponents, one byte for the
   * exponent and a terminator byte for negatives (dynalite's fit of live limits). */
  first = d.exp + (gint64) d.n - 1;
  size = 1 + (d.n + 1) / 2;
  if (d.n % 2 == 0 && first % 2 == 0)
    size++;
  /* A negative number's terminator byte is left out when its 20 mantissa bytes are full: the
   * most a number takes is 21 bytes (DynamoDB Local 3.3.1's 400 KB boundary for
   * -1.2345678901234567890123456789012345678 is one byte later than 22 would give). */
  if (d.neg && size < 21)
    size++;

  return size;
}
