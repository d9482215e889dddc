/* dyno-sigv4.c: AWS Signature Version 4
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "dyno-sigv4.h"

#include <string.h>

#define ALGORITHM "AWS4-HMAC-SHA256"
#define SESSION_TOKEN_HEADER "X-Amz-Security-Token"

/* Hop-by-hop and proxy-rewritten headers that botocore leaves out of the signature: a proxy
 * may change them, and a signature over them would then fail. */
static const char * const unsigned_headers[] = {
  "authorization", "connection", "expect", "keep-alive", "proxy-authenticate",
  "proxy-authorization", "te", "trailer", "transfer-encoding", "upgrade", "user-agent",
  "x-amzn-trace-id",
};

typedef struct {
  char *name;   /* lowercase */
  char *value;  /* trimmed */
  guint index;  /* original position: repeated headers keep their order */
} CanonicalHeader;

DynoHeader *
dyno_header_new (const char *name,
                 const char *value)
{
  DynoHeader *header;

  g_return_val_if_fail (name != NULL, NULL);
  g_return_val_if_fail (value != NULL, NULL);

  header = g_new0 (DynoHeader, 1);
  header->name = g_strdup (name);
  header->value = g_strdup (value);
  return header;
}

void
dyno_header_free (DynoHeader *header)
{
  if (header == NULL)
    return;
  g_free (header->name);
  g_free (header->value);
  g_free (header);
}

GPtrArray *
dyno_headers_new (void)
{
  return g_ptr_array_new_with_free_func ((GDestroyNotify) dyno_header_free);
}

void
dyno_sigv4_result_free (DynoSigv4Result *result)
{
  if (result == NULL)
    return;
  g_free (result->canonical_request);
  g_free (result->string_to_sign);
  g_free (result->signature);
  g_free (result->authorization);
  g_free (result->signed_headers);
  g_free (result);
}

char *
dyno_sigv4_format_amz_date (GDateTime *time)
{
  g_autoptr(GDateTime) now = NULL;
  g_autoptr(GDateTime) utc = NULL;

  if (time == NULL)
    time = now = g_date_time_new_now_utc ();
  utc = g_date_time_to_utc (time);
  return g_date_time_format (utc, "%Y%m%dT%H%M%SZ");
}

static gboolean
is_unreserved (guchar c)
{
  return g_ascii_isalnum (c) || c == '-' || c == '_' || c == '.' || c == '~';
}

/* RFC 3986 encoding as SigV4 wants it: everything but the unreserved set, as %XX in upper
 * case; @keep_slash for paths. */
static void
uri_encode (GString    *out,
            const char *text,
            gssize      len,
            gboolean    keep_slash)
{
  static const char hex[] = "0123456789ABCDEF";

  if (len < 0)
    len = strlen (text);
  for (gssize i = 0; i < len; i++)
    {
      guchar c = (guchar) text[i];

      if (is_unreserved (c) || (keep_slash && c == '/'))
        g_string_append_c (out, (char) c);
      else
        {
          g_string_append_c (out, '%');
          g_string_append_c (out, hex[c >> 4]);
          g_string_append_c (out, hex[c & 0xf]);
        }
    }
}

/* Decodes %XX (the caller's query may already be encoded); invalid escapes stay literal. */
static char *
percent_decode (const char *text,
                gsize       len)
{
  GString *out = g_string_sized_new (len);

  for (gsize i = 0; i < len; i++)
    {
      if (text[i] == '%' && i + 2 < len && g_ascii_isxdigit (text[i + 1])
          && g_ascii_isxdigit (text[i + 2]))
        {
          g_string_append_c (out, (char) ((g_ascii_xdigit_value (text[i + 1]) << 4)
                                          | g_ascii_xdigit_value (text[i + 2])));
          i += 2;
        }
      else
        g_string_append_c (out, text[i]);
    }
  return g_string_free (out, FALSE);
}

/* Removes "." and ".." segments and empty segments, as botocore's normalize_url_path does,
 * keeping a trailing slash. */
static char *
normalize_path (const char *path)
{
  g_auto(GStrv) parts = NULL;
  g_autoptr(GPtrArray) kept = g_ptr_array_new ();
  GString *out;
  gsize len;

  if (path == NULL || *path == '\0')
    return g_strdup ("/");

  parts = g_strsplit (path, "/", -1);
  for (guint i = 0; parts[i] != NULL; i++)
    {
      if (parts[i][0] == '\0' || g_str_equal (parts[i], "."))
        continue;
      if (g_str_equal (parts[i], ".."))
        {
          if (kept->len > 0)
            g_ptr_array_remove_index (kept, kept->len - 1);
          continue;
        }
      g_ptr_array_add (kept, parts[i]);
    }

  out = g_string_new ("/");
  for (guint i = 0; i < kept->len; i++)
    {
      if (i > 0)
        g_string_append_c (out, '/');
      g_string_append (out, g_ptr_array_index (kept, i));
    }
  len = strlen (path);
  if (kept->len > 0 && path[len - 1] == '/')
    g_string_append_c (out, '/');
  return g_string_free (out, FALSE);
}

typedef struct {
  char *key;
  char *value;
} QueryParam;

static void
query_param_free (gpointer data)
{
  QueryParam *param = data;

  g_free (param->key);
  g_free (param->value);
  g_free (param);
}

static int
query_param_compare (gconstpointer a,
                     gconstpointer b)
{
  const QueryParam *pa = *(const QueryParam * const *) a;
  const QueryParam *pb = *(const QueryParam * const *) b;
  int cmp = strcmp (pa->key, pb->key);

  return cmp != 0 ? cmp : strcmp (pa->value, pb->value);
}

static char *
canonical_query (const char *query)
{
  g_autoptr(GPtrArray) params = g_ptr_array_new_with_free_func (query_param_free);
  g_auto(GStrv) pairs = NULL;
  GString *out;

  if (query == NULL || *query == '\0')
    return g_strdup ("");

  pairs = g_strsplit (query, "&", -1);
  for (guint i = 0; pairs[i] != NULL; i++)
    {
      const char *pair = pairs[i];
      const char *eq = strchr (pair, '=');
      gsize key_len = eq != NULL ? (gsize) (eq - pair) : strlen (pair);
      g_autofree char *key = NULL;
      g_autofree char *value = NULL;
      QueryParam *param;
      GString *enc;

      if (*pair == '\0')
        continue;
      key = percent_decode (pair, key_len);
      value = eq != NULL ? percent_decode (eq + 1, strlen (eq + 1)) : g_strdup ("");

      param = g_new0 (QueryParam, 1);
      enc = g_string_new (NULL);
      uri_encode (enc, key, -1, FALSE);
      param->key = g_string_free (enc, FALSE);
      enc = g_string_new (NULL);
      uri_encode (enc, value, -1, FALSE);
      param->value = g_string_free (enc, FALSE);
      g_ptr_array_add (params, param);
    }
  g_ptr_array_sort (params, query_param_compare);

  out = g_string_new (NULL);
  for (guint i = 0; i < params->len; i++)
    {
      QueryParam *param = g_ptr_array_index (params, i);

      if (i > 0)
        g_string_append_c (out, '&');
      g_string_append_printf (out, "%s=%s", param->key, param->value);
    }
  return g_string_free (out, FALSE);
}

/* Strips the ends and folds every run of whitespace (including folded line breaks) into
 * one space: botocore's ' '.join(value.split()). */
static char *
trim_all (const char *value)
{
  GString *out = g_string_new (NULL);
  gboolean in_space = FALSE;

  for (const char *p = value; *p != '\0'; p++)
    {
      if (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' || *p == '\v' || *p == '\f')
        in_space = TRUE;
      else
        {
          if (in_space && out->len > 0)
            g_string_append_c (out, ' ');
          in_space = FALSE;
          g_string_append_c (out, *p);
        }
    }
  return g_string_free (out, FALSE);
}

static gboolean
is_unsigned_header (const char *lower_name)
{
  for (gsize i = 0; i < G_N_ELEMENTS (unsigned_headers); i++)
    if (g_str_equal (lower_name, unsigned_headers[i]))
      return TRUE;
  return FALSE;
}

static void
canonical_header_free (gpointer data)
{
  CanonicalHeader *header = data;

  g_free (header->name);
  g_free (header->value);
  g_free (header);
}

static int
canonical_header_compare (gconstpointer a,
                          gconstpointer b)
{
  const CanonicalHeader *ha = *(const CanonicalHeader * const *) a;
  const CanonicalHeader *hb = *(const CanonicalHeader * const *) b;
  int cmp = strcmp (ha->name, hb->name);

  if (cmp != 0)
    return cmp;
  return ha->index < hb->index ? -1 : ha->index > hb->index;
}

static void
add_canonical_header (GPtrArray  *headers,
                      const char *name,
                      const char *value)
{
  CanonicalHeader *header = g_new0 (CanonicalHeader, 1);

  header->name = g_ascii_strdown (name, -1);
  header->value = trim_all (value);
  header->index = headers->len;
  g_ptr_array_add (headers, header);
}

static const char *
find_header (GPtrArray  *headers,
             const char *name)
{
  if (headers == NULL)
    return NULL;
  for (guint i = 0; i < headers->len; i++)
    {
      DynoHeader *header = g_ptr_array_index (headers, i);

      if (g_ascii_strcasecmp (header->name, name) == 0)
        return header->value;
    }
  return NULL;
}

static char *
sha256_hex (const guint8 *data,
            gsize         len)
{
  return g_compute_checksum_for_data (G_CHECKSUM_SHA256, data != NULL ? data : (const guint8 *) "",
                                      len);
}

/* HMAC-SHA256 of @data under @key into @out (32 bytes). */
static void
hmac_sha256 (const guint8 *key,
             gsize         key_len,
             const char   *data,
             guint8        out[32])
{
  g_autoptr(GHmac) hmac = g_hmac_new (G_CHECKSUM_SHA256, key, key_len);
  gsize out_len = 32;

  g_hmac_update (hmac, (const guchar *) data, strlen (data));
  g_hmac_get_digest (hmac, out, &out_len);
  g_assert (out_len == 32);
}

static gboolean
is_valid_amz_date (const char *date)
{
  if (strlen (date) != 16 || date[8] != 'T' || date[15] != 'Z')
    return FALSE;
  for (int i = 0; i < 15; i++)
    if (i != 8 && !g_ascii_isdigit (date[i]))
      return FALSE;
  return TRUE;
}

DynoSigv4Result *
dyno_sigv4_sign (const DynoSigv4Request *request,
                 DynoCredentials        *credentials,
                 const char             *region,
                 const char             *service,
                 const char             *amz_date)
{
  g_autoptr(GPtrArray) headers = g_ptr_array_new_with_free_func (canonical_header_free);
  g_autoptr(DynoSigv4Result) result = NULL;
  g_autofree char *path = NULL;
  g_autofree char *query = NULL;
  g_autofree char *payload_hash = NULL;
  g_autofree char *creq_hash = NULL;
  g_autofree char *scope = NULL;
  g_autofree char *secret_key = NULL;
  GString *creq;
  GString *signed_names;
  const char *header_date;
  const char *token;
  char date[9];
  guint8 key[32];
  guint8 signature[32];

  g_return_val_if_fail (request != NULL, NULL);
  g_return_val_if_fail (request->method != NULL, NULL);
  g_return_val_if_fail (credentials != NULL, NULL);
  g_return_val_if_fail (region != NULL && *region != '\0', NULL);
  g_return_val_if_fail (service != NULL && *service != '\0', NULL);
  g_return_val_if_fail (find_header (request->headers, "Host") != NULL, NULL);

  header_date = find_header (request->headers, "X-Amz-Date");
  if (amz_date == NULL)
    amz_date = header_date;
  g_return_val_if_fail (amz_date != NULL && is_valid_amz_date (amz_date), NULL);
  /* A different X-Amz-Date on the wire than the one signed would never verify. */
  g_return_val_if_fail (header_date == NULL || g_str_equal (header_date, amz_date), NULL);

  if (request->headers != NULL)
    for (guint i = 0; i < request->headers->len; i++)
      {
        DynoHeader *header = g_ptr_array_index (request->headers, i);
        g_autofree char *lower = g_ascii_strdown (header->name, -1);

        if (!is_unsigned_header (lower))
          add_canonical_header (headers, header->name, header->value);
      }
  if (header_date == NULL)
    add_canonical_header (headers, "X-Amz-Date", amz_date);
  token = dyno_credentials_get_session_token (credentials);
  if (token != NULL && find_header (request->headers, SESSION_TOKEN_HEADER) == NULL)
    add_canonical_header (headers, SESSION_TOKEN_HEADER, token);
  g_ptr_array_sort (headers, canonical_header_compare);

  path = normalize_path (request->path);
  query = canonical_query (request->query);
  payload_hash = sha256_hex (request->body, request->body_len);

  creq = g_string_new (request->method);
  g_string_append_c (creq, '\n');
  uri_encode (creq, path, -1, TRUE);
  g_string_append_c (creq, '\n');
  g_string_append (creq, query);
  g_string_append_c (creq, '\n');

  signed_names = g_string_new (NULL);
  for (guint i = 0; i < headers->len; i++)
    {
      CanonicalHeader *header = g_ptr_array_index (headers, i);
      CanonicalHeader *prev = i > 0 ? g_ptr_array_index (headers, i - 1) : NULL;

      if (prev != NULL && g_str_equal (prev->name, header->name))
        {
          /* Repeated header: one line, values joined with ',' in their original order. */
          g_string_truncate (creq, creq->len - 1);
          g_string_append_printf (creq, ",%s\n", header->value);
          continue;
        }
      g_string_append_printf (creq, "%s:%s\n", header->name, header->value);
      if (signed_names->len > 0)
        g_string_append_c (signed_names, ';');
      g_string_append (signed_names, header->name);
    }
  g_string_append_c (creq, '\n');
  g_string_append (creq, signed_names->str);
  g_string_append_c (creq, '\n');
  g_string_append (creq, payload_hash);

  result = g_new0 (DynoSigv4Result, 1);
  result->canonical_request = g_string_free (creq, FALSE);
  result->signed_headers = g_string_free (signed_names, FALSE);

  memcpy (date, amz_date, 8);
  date[8] = '\0';
  scope = g_strdup_printf ("%s/%s/%s/aws4_request", date, region, service);
  creq_hash = sha256_hex ((const guint8 *) result->canonical_request,
                          strlen (result->canonical_request));
  result->string_to_sign = g_strdup_printf (ALGORITHM "\n%s\n%s\n%s", amz_date, scope, creq_hash);

  secret_key = g_strconcat ("AWS4", dyno_credentials_get_secret_access_key (credentials), NULL);
  hmac_sha256 ((const guint8 *) secret_key, strlen (secret_key), date, key);
  explicit_bzero (secret_key, strlen (secret_key));
  hmac_sha256 (key, sizeof key, region, key);
  hmac_sha256 (key, sizeof key, service, key);
  hmac_sha256 (key, sizeof key, "aws4_request", key);
  hmac_sha256 (key, sizeof key, result->string_to_sign, signature);
  explicit_bzero (key, sizeof key);

  result->signature = g_malloc (65);
  for (int i = 0; i < 32; i++)
    g_snprintf (result->signature + 2 * i, 3, "%02x", signature[i]);
  result->authorization = g_strdup_printf (ALGORITHM " Credential=%s/%s, SignedHeaders=%s, "
                                           "Signature=%s",
                                           dyno_credentials_get_access_key_id (credentials),
                                           scope, result->signed_headers, result->signature);
  return g_steal_pointer (&result);
}

DynoSigv4Result *
dyno_sigv4_sign_headers (DynoSigv4Request *request,
                         DynoCredentials  *credentials,
                         const char       *region,
                         const char       *service,
                         const char       *amz_date)
{
  g_autofree char *now = NULL;
  DynoSigv4Result *result;
  const char *token;

  g_return_val_if_fail (request != NULL && request->headers != NULL, NULL);
  g_return_val_if_fail (credentials != NULL, NULL);

  if (amz_date == NULL)
    amz_date = find_header (request->headers, "X-Amz-Date");
  if (amz_date == NULL)
    amz_date = now = dyno_sigv4_format_amz_date (NULL);

  result = dyno_sigv4_sign (request, credentials, region, service, amz_date);
  if (result == NULL)
    return NULL;

  if (find_header (request->headers, "X-Amz-Date") == NULL)
    g_ptr_array_add (request->headers, dyno_header_new ("X-Amz-Date", amz_date));
  token = dyno_credentials_get_session_token (credentials);
  if (token != NULL && find_header (request->headers, SESSION_TOKEN_HEADER) == NULL)
    g_ptr_array_add (request->headers, dyno_header_new (SESSION_TOKEN_HEADER, token));
  g_ptr_array_add (request->headers, dyno_header_new ("Authorization", result->authorization));
  return result;
}
