/* dyno-aws-auth.c: STS, the IAM Identity Center portal, SSO-OIDC and the SSO token cache
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "dyno-aws-auth.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <libsoup/soup.h>
#include <string.h>

#include "dyno-error.h"
#include "dyno-json.h"
#include "dyno-sigv4.h"

#define STS_VERSION "2011-06-15"
#define FORM_CONTENT_TYPE "application/x-www-form-urlencoded; charset=utf-8"

static SoupSession *
new_session (void)
{
  g_autofree char *user_agent = g_strdup_printf ("dynotable/%s", PACKAGE_VERSION);

  return soup_session_new_with_options ("user-agent", user_agent, "timeout", 60,
                                        "idle-timeout", 60, NULL);
}

/* @base ("https://sts.eu-west-1.amazonaws.com", maybe with a path) joined with @path. */
static GUri *
endpoint_uri (const char  *base,
              const char  *path,
              const char  *query,
              GError     **error)
{
  g_autoptr(GUri) uri = NULL;
  g_autofree char *joined = NULL;
  g_autoptr(GError) local_error = NULL;
  const char *base_path;

  uri = g_uri_parse (base, G_URI_FLAGS_NONE, &local_error);
  if (uri == NULL || g_uri_get_host (uri) == NULL)
    {
      g_set_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG, _("“%s” is not a valid endpoint URL."),
                   base);
      return NULL;
    }
  base_path = g_uri_get_path (uri);
  if (g_str_has_suffix (base_path, "/"))
    joined = g_strconcat (base_path, path[0] == '/' ? path + 1 : path, NULL);
  else
    joined = g_strconcat (base_path, path, NULL);
  return g_uri_build (G_URI_FLAGS_ENCODED, g_uri_get_scheme (uri), NULL, g_uri_get_host (uri),
                      g_uri_get_port (uri), joined, query, NULL);
}

/* What is signed as Host: host, and :port when it is not the scheme's default. */
static char *
host_header (GUri *uri)
{
  const char *host = g_uri_get_host (uri);
  int port = g_uri_get_port (uri);
  gboolean brackets = strchr (host, ':') != NULL;
  const char *scheme = g_uri_get_scheme (uri);

  if (port < 0 || (port == 443 && g_ascii_strcasecmp (scheme, "https") == 0)
      || (port == 80 && g_ascii_strcasecmp (scheme, "http") == 0))
    return brackets ? g_strdup_printf ("[%s]", host) : g_strdup (host);
  return brackets ? g_strdup_printf ("[%s]:%d", host, port) : g_strdup_printf ("%s:%d", host, port);
}

/* Sends @message and reads the whole answer; network failures are DYNO_ERROR_NETWORK naming
 * @what ("STS", "the IAM Identity Center portal"). */
static GBytes *
send_message (SoupMessage   *message,
              const char    *what,
              GCancellable  *cancellable,
              GError       **error)
{
  g_autoptr(SoupSession) session = new_session ();
  g_autoptr(GError) local_error = NULL;
  GBytes *body;

  body = soup_session_send_and_read (session, message, cancellable, &local_error);
  if (body == NULL)
    {
      if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_propagate_error (error, g_steal_pointer (&local_error));
      else
        {
          g_autofree char *url = g_uri_to_string_partial (soup_message_get_uri (message),
                                                          G_URI_HIDE_QUERY);

          g_set_error (error, DYNO_ERROR, DYNO_ERROR_NETWORK,
                       /* Translators: the service ("STS"), its URL, then the system's message */
                       _("Could not reach %s at %s: %s"), what, url, local_error->message);
        }
    }
  return body;
}

/* ---- STS ---------------------------------------------------------------------------------- */

char *
dyno_sts_default_endpoint (const char *region)
{
  return g_strdup_printf ("https://sts.%s.amazonaws.com", region);
}

static void
form_add (GString    *form,
          const char *name,
          const char *value)
{
  g_autofree char *escaped = g_uri_escape_string (value, NULL, FALSE);

  if (form->len > 0)
    g_string_append_c (form, '&');
  g_string_append_printf (form, "%s=%s", name, escaped);
}

/* The text of the leaf elements of an STS answer, by element name. */
typedef struct {
  GHashTable *values;
  GString    *text;
} XmlState;

static void
xml_start (GMarkupParseContext  *context,
           const char           *element,
           const char          **attribute_names,
           const char          **attribute_values,
           gpointer              user_data,
           GError              **error)
{
  XmlState *state = user_data;

  g_string_truncate (state->text, 0);
}

static void
xml_end (GMarkupParseContext  *context,
         const char           *element,
         gpointer              user_data,
         GError              **error)
{
  XmlState *state = user_data;

  if (!g_hash_table_contains (state->values, element))
    g_hash_table_insert (state->values, g_strdup (element), g_strdup (state->text->str));
  explicit_bzero (state->text->str, state->text->len);
  g_string_truncate (state->text, 0);
}

static void
xml_text (GMarkupParseContext  *context,
          const char           *text,
          gsize                 len,
          gpointer              user_data,
          GError              **error)
{
  XmlState *state = user_data;

  g_string_append_len (state->text, text, len);
}

static void
secret_value_free (gpointer data)
{
  dyno_secret_free (data);
}

static GHashTable *
parse_xml (GBytes *body)
{
  static const GMarkupParser parser = { xml_start, xml_end, xml_text, NULL, NULL };
  g_autoptr(GMarkupParseContext) context = NULL;
  g_autoptr(GString) text = g_string_new (NULL);
  GHashTable *values = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                              secret_value_free);
  XmlState state = { values, text };
  gsize len;
  const char *data = g_bytes_get_data (body, &len);

  context = g_markup_parse_context_new (&parser, G_MARKUP_IGNORE_QUALIFIED, &state, NULL);
  if (data == NULL || !g_markup_parse_context_parse (context, data, len, NULL)
      || !g_markup_parse_context_end_parse (context, NULL))
    {
      g_hash_table_unref (values);
      return NULL;
    }
  return values;
}

static GDateTime *
parse_time (const char *text)
{
  g_autoptr(GTimeZone) utc = g_time_zone_new_utc ();
  g_autofree char *copy = NULL;

  if (text == NULL)
    return NULL;
  /* The AWS CLI v1 wrote "2019-11-14T04:05:45UTC". */
  if (g_str_has_suffix (text, "UTC"))
    {
      copy = g_strndup (text, strlen (text) - 3);
      return g_date_time_new_from_iso8601 (copy, utc);
    }
  return g_date_time_new_from_iso8601 (text, utc);
}

static DynoCredentials *
sts_call (const char                  *endpoint,
          const char                  *region,
          DynoCredentials             *source,
          const char                  *form,
          const char                  *role_arn,
          GCancellable                *cancellable,
          GError                     **error)
{
  g_autoptr(GUri) uri = NULL;
  g_autoptr(SoupMessage) message = NULL;
  g_autoptr(GBytes) body = NULL;
  g_autoptr(GBytes) request_body = NULL;
  g_autoptr(GHashTable) values = NULL;
  SoupMessageHeaders *headers;
  const char *akid;
  const char *secret;
  const char *token;
  const char *expiration;
  g_autoptr(GDateTime) expires = NULL;
  DynoCredentials *creds;
  guint status;

  uri = endpoint_uri (endpoint, "/", NULL, error);
  if (uri == NULL)
    return NULL;
  request_body = g_bytes_new (form, strlen (form));
  message = soup_message_new_from_uri ("POST", uri);
  headers = soup_message_get_request_headers (message);
  if (source != NULL)
    {
      g_autoptr(GPtrArray) sign = dyno_headers_new ();
      g_autoptr(DynoSigv4Result) signature = NULL;
      g_autofree char *host = host_header (uri);
      DynoSigv4Request request = { 0 };

      g_ptr_array_add (sign, dyno_header_new ("Host", host));
      g_ptr_array_add (sign, dyno_header_new ("Content-Type", FORM_CONTENT_TYPE));
      request.method = "POST";
      request.path = "/";
      request.headers = sign;
      request.body = (const guint8 *) form;
      request.body_len = strlen (form);
      signature = dyno_sigv4_sign_headers (&request, source, region, "sts", NULL);
      if (signature == NULL)
        {
          g_set_error (error, DYNO_ERROR, DYNO_ERROR_FAILED,
                       _("Could not sign the request to STS."));
          return NULL;
        }
      for (guint i = 0; i < sign->len; i++)
        {
          DynoHeader *header = g_ptr_array_index (sign, i);

          if (g_ascii_strcasecmp (header->name, "Host") != 0
              && g_ascii_strcasecmp (header->name, "Content-Type") != 0)
            soup_message_headers_replace (headers, header->name, header->value);
        }
    }
  soup_message_set_request_body_from_bytes (message, FORM_CONTENT_TYPE, request_body);

  body = send_message (message, "STS", cancellable, error);
  if (body == NULL)
    return NULL;
  status = soup_message_get_status (message);
  values = parse_xml (body);
  if (status != 200)
    {
      const char *code = values != NULL ? g_hash_table_lookup (values, "Code") : NULL;
      const char *text = values != NULL ? g_hash_table_lookup (values, "Message") : NULL;

      g_set_error (error, DYNO_ERROR,
                   g_strcmp0 (code, "ExpiredToken") == 0 ? DYNO_ERROR_EXPIRED_TOKEN
                   : status == 403 || g_strcmp0 (code, "AccessDenied") == 0 ? DYNO_ERROR_AUTH
                   : DYNO_ERROR_SERVICE,
                   /* Translators: the role ARN, the error code, then STS's message. */
                   _("STS refused to let you assume the role %s: %s: %s"), role_arn,
                   code != NULL ? code : soup_message_get_reason_phrase (message),
                   text != NULL && *text != '\0' ? text : _("(no message)"));
      return NULL;
    }
  akid = values != NULL ? g_hash_table_lookup (values, "AccessKeyId") : NULL;
  secret = values != NULL ? g_hash_table_lookup (values, "SecretAccessKey") : NULL;
  token = values != NULL ? g_hash_table_lookup (values, "SessionToken") : NULL;
  expiration = values != NULL ? g_hash_table_lookup (values, "Expiration") : NULL;
  if (akid == NULL || *akid == '\0' || secret == NULL || *secret == '\0')
    {
      g_set_error (error, DYNO_ERROR, DYNO_ERROR_SERVICE,
                   _("STS answered the request for the role %s without credentials."), role_arn);
      return NULL;
    }
  expires = parse_time (expiration);
  creds = dyno_credentials_new (akid, secret, token, expires);
  return creds;
}

static void
add_common (GString                    *form,
            const DynoAssumeRoleParams *params)
{
  form_add (form, "RoleArn", params->role_arn);
  form_add (form, "RoleSessionName", params->session_name);
  if (params->duration_seconds > 0)
    {
      char number[32];

      g_snprintf (number, sizeof number, "%" G_GINT64_FORMAT, params->duration_seconds);
      form_add (form, "DurationSeconds", number);
    }
}

DynoCredentials *
dyno_sts_assume_role (const char                  *endpoint,
                      const char                  *region,
                      DynoCredentials             *source,
                      const DynoAssumeRoleParams  *params,
                      GCancellable                *cancellable,
                      GError                     **error)
{
  g_autoptr(GString) form = g_string_new (NULL);
  DynoCredentials *creds;

  g_return_val_if_fail (source != NULL, NULL);

  form_add (form, "Action", "AssumeRole");
  form_add (form, "Version", STS_VERSION);
  add_common (form, params);
  if (params->external_id != NULL)
    form_add (form, "ExternalId", params->external_id);
  if (params->mfa_serial != NULL)
    {
      form_add (form, "SerialNumber", params->mfa_serial);
      form_add (form, "TokenCode", params->mfa_code != NULL ? params->mfa_code : "");
    }
  creds = sts_call (endpoint, region, source, form->str, params->role_arn, cancellable, error);
  explicit_bzero (form->str, form->len);
  return creds;
}

DynoCredentials *
dyno_sts_assume_role_with_web_identity (const char                  *endpoint,
                                        const DynoAssumeRoleParams  *params,
                                        const char                  *token,
                                        GCancellable                *cancellable,
                                        GError                     **error)
{
  g_autoptr(GString) form = g_string_new (NULL);
  DynoCredentials *creds;

  form_add (form, "Action", "AssumeRoleWithWebIdentity");
  form_add (form, "Version", STS_VERSION);
  add_common (form, params);
  form_add (form, "WebIdentityToken", token);
  creds = sts_call (endpoint, NULL, NULL, form->str, params->role_arn, cancellable, error);
  explicit_bzero (form->str, form->len);
  return creds;
}

/* ---- JSON services ------------------------------------------------------------------------ */

char *
dyno_sso_default_endpoint (const char *region)
{
  return g_strdup_printf ("https://portal.sso.%s.amazonaws.com", region);
}

char *
dyno_sso_oidc_default_endpoint (const char *region)
{
  return g_strdup_printf ("https://oidc.%s.amazonaws.com", region);
}

static gboolean
member_int (JsonObject *object,
            const char *name,
            gint64     *out)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, name) : NULL;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return FALSE;
  if (json_node_get_value_type (node) == G_TYPE_INT64)
    *out = json_node_get_int (node);
  else if (json_node_get_value_type (node) == G_TYPE_DOUBLE)
    *out = (gint64) json_node_get_double (node);
  else
    return FALSE;
  return TRUE;
}

/* The error code of a JSON answer: x-amzn-ErrorType, "__type" or "error" (OAuth style), in
 * that order, without the "…#" prefix and ":…" suffix. */
static char *
error_code (SoupMessage *message,
            JsonObject  *object)
{
  const char *value = soup_message_headers_get_one (soup_message_get_response_headers (message),
                                                    "x-amzn-ErrorType");
  const char *hash;
  char *code;

  if (value == NULL)
    value = dyno_json_object_peek_string (object, "__type");
  if (value == NULL)
    value = dyno_json_object_peek_string (object, "error");
  if (value == NULL)
    return NULL;
  hash = strrchr (value, '#');
  code = g_strdup (hash != NULL ? hash + 1 : value);
  if (strchr (code, ':') != NULL)
    *strchr (code, ':') = '\0';
  return code;
}

static const char *
error_message (JsonObject *object)
{
  const char *text = dyno_json_object_peek_string (object, "error_description");

  if (text == NULL)
    text = dyno_json_object_peek_string (object, "message");
  if (text == NULL)
    text = dyno_json_object_peek_string (object, "Message");
  return text;
}

/* Sends @message; @root gets the JSON object of the answer (NULL when it has none).  Returns
 * the HTTP status, or 0 with @error set. */
static guint
json_call (SoupMessage   *message,
           const char    *what,
           JsonNode     **root,
           GCancellable  *cancellable,
           GError       **error)
{
  g_autoptr(GBytes) body = NULL;
  gsize len;
  const char *data;

  *root = NULL;
  body = send_message (message, what, cancellable, error);
  if (body == NULL)
    return 0;
  data = g_bytes_get_data (body, &len);
  if (len > 0)
    {
      *root = dyno_json_parse (data, len, NULL);
      if (*root != NULL && !JSON_NODE_HOLDS_OBJECT (*root))
        g_clear_pointer (root, json_node_unref);
      explicit_bzero ((char *) data, len);
    }
  return soup_message_get_status (message);
}

/* An SSO-OIDC call: POSTs @builder's object to @path at @endpoint into a new *@message, and
 * the answer's object (or NULL) into *@root and *@object.  Returns the HTTP status, or 0 with
 * @error set. */
static guint
oidc_post (const char    *endpoint,
           const char    *path,
           JsonBuilder   *builder,
           SoupMessage  **message,
           JsonNode     **root,
           JsonObject   **object,
           GCancellable  *cancellable,
           GError       **error)
{
  g_autoptr(GUri) uri = endpoint_uri (endpoint, path, NULL, error);
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GBytes) bytes = NULL;
  char *text;
  guint status;

  *message = NULL;
  *root = NULL;
  *object = NULL;
  if (uri == NULL)
    return 0;
  node = json_builder_get_root (builder);
  text = dyno_json_node_to_string (node, FALSE);
  bytes = g_bytes_new_with_free_func (text, strlen (text), (GDestroyNotify) dyno_secret_free, text);
  *message = soup_message_new_from_uri ("POST", uri);
  soup_message_set_request_body_from_bytes (*message, "application/json", bytes);
  status = json_call (*message, "SSO-OIDC", root, cancellable, error);
  if (*root != NULL)
    *object = json_node_get_object (*root);
  return status;
}

static void
add_string_member (JsonBuilder *builder,
                   const char  *name,
                   const char  *value)
{
  json_builder_set_member_name (builder, name);
  json_builder_add_string_value (builder, value);
}

DynoCredentials *
dyno_sso_get_role_credentials (const char    *endpoint,
                               const char    *access_token,
                               const char    *account_id,
                               const char    *role_name,
                               GCancellable  *cancellable,
                               GError       **error)
{
  g_autoptr(GUri) uri = NULL;
  g_autoptr(SoupMessage) message = NULL;
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *query = NULL;
  g_autofree char *account_escaped = g_uri_escape_string (account_id, NULL, FALSE);
  g_autofree char *role_escaped = g_uri_escape_string (role_name, NULL, FALSE);
  g_autoptr(GDateTime) expires = NULL;
  JsonObject *object;
  JsonNode *node;
  const char *akid;
  const char *secret;
  const char *token;
  gint64 expiration = 0;
  guint status;

  query = g_strdup_printf ("account_id=%s&role_name=%s", account_escaped, role_escaped);
  uri = endpoint_uri (endpoint, "/federation/credentials", query, error);
  if (uri == NULL)
    return NULL;
  message = soup_message_new_from_uri ("GET", uri);
  soup_message_headers_replace (soup_message_get_request_headers (message),
                                "x-amz-sso_bearer_token", access_token);
  status = json_call (message, _("the IAM Identity Center portal"), &root, cancellable, error);
  if (status == 0)
    return NULL;
  object = root != NULL ? json_node_get_object (root) : NULL;
  if (status != 200)
    {
      g_autofree char *code = error_code (message, object);
      const char *text = error_message (object);

      g_set_error (error, DYNO_ERROR,
                   status == 401 || g_strcmp0 (code, "UnauthorizedException") == 0
                   ? DYNO_ERROR_EXPIRED_TOKEN
                   : status == 403 ? DYNO_ERROR_AUTH : DYNO_ERROR_SERVICE,
                   /* Translators: the role name, the account, the error code, then the
                    * portal's message. */
                   _("IAM Identity Center refused credentials for the role %s in account %s: "
                     "%s: %s"), role_name, account_id,
                   code != NULL ? code : soup_message_get_reason_phrase (message),
                   text != NULL ? text : _("(no message)"));
      return NULL;
    }
  node = object != NULL ? json_object_get_member (object, "roleCredentials") : NULL;
  object = node != NULL && JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
  akid = dyno_json_object_peek_string (object, "accessKeyId");
  secret = dyno_json_object_peek_string (object, "secretAccessKey");
  token = dyno_json_object_peek_string (object, "sessionToken");
  if (akid == NULL || secret == NULL)
    {
      g_set_error (error, DYNO_ERROR, DYNO_ERROR_SERVICE,
                   _("IAM Identity Center answered without credentials for the role %s in "
                     "account %s."), role_name, account_id);
      return NULL;
    }
  if (member_int (object, "expiration", &expiration))
    expires = g_date_time_new_from_unix_utc (expiration / 1000);
  return dyno_credentials_new (akid, secret, token, expires);
}

/* ---- the token cache ---------------------------------------------------------------------- */

void
dyno_sso_token_free (DynoSsoToken *token)
{
  if (token == NULL)
    return;
  dyno_secret_free (token->access_token);
  g_clear_pointer (&token->expires_at, g_date_time_unref);
  dyno_secret_free (token->refresh_token);
  g_free (token->client_id);
  dyno_secret_free (token->client_secret);
  g_clear_pointer (&token->registration_expires_at, g_date_time_unref);
  g_free (token->region);
  g_free (token->start_url);
  g_free (token);
}

char *
dyno_sso_cache_path (const char *home,
                     const char *key)
{
  g_autofree char *hash = g_compute_checksum_for_string (G_CHECKSUM_SHA1, key, -1);
  g_autofree char *name = g_strconcat (hash, ".json", NULL);

  return g_build_filename (home, ".aws", "sso", "cache", name, NULL);
}

DynoSsoToken *
dyno_sso_token_load (const char  *path,
                     GError     **error)
{
  g_autofree char *contents = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autoptr(JsonNode) root = NULL;
  DynoSsoToken *token;
  JsonObject *object;
  gsize len;

  if (!g_file_get_contents (path, &contents, &len, &local_error))
    {
      if (g_error_matches (local_error, G_FILE_ERROR, G_FILE_ERROR_NOENT))
        return NULL;
      g_set_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG,
                   _("Could not read the IAM Identity Center token cache %s: %s"), path,
                   local_error->message);
      return NULL;
    }
  root = dyno_json_parse (contents, len, NULL);
  explicit_bzero (contents, len);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root)
      || dyno_json_object_peek_string (json_node_get_object (root), "accessToken") == NULL)
    {
      g_set_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG,
                   _("The IAM Identity Center token cache %s is not a JSON object with an "
                     "accessToken."), path);
      return NULL;
    }
  object = json_node_get_object (root);
  token = g_new0 (DynoSsoToken, 1);
  token->access_token = g_strdup (dyno_json_object_peek_string (object, "accessToken"));
  token->expires_at = parse_time (dyno_json_object_peek_string (object, "expiresAt"));
  token->refresh_token = g_strdup (dyno_json_object_peek_string (object, "refreshToken"));
  token->client_id = g_strdup (dyno_json_object_peek_string (object, "clientId"));
  token->client_secret = g_strdup (dyno_json_object_peek_string (object, "clientSecret"));
  token->registration_expires_at = parse_time (dyno_json_object_peek_string (object,
                                                              "registrationExpiresAt"));
  token->region = g_strdup (dyno_json_object_peek_string (object, "region"));
  token->start_url = g_strdup (dyno_json_object_peek_string (object, "startUrl"));
  return token;
}

static void
set_string (JsonObject *object,
            const char *name,
            const char *value)
{
  if (value != NULL)
    json_object_set_string_member (object, name, value);
}

static void
set_time (JsonObject *object,
          const char *name,
          GDateTime  *value)
{
  g_autofree char *text = NULL;

  if (value == NULL)
    return;
  /* As botocore writes it (and as the AWS CLI v2 reads it). */
  text = g_date_time_format (value, "%Y-%m-%dT%H:%M:%SZ");
  json_object_set_string_member (object, name, text);
}

gboolean
dyno_sso_token_save (const char          *path,
                     const DynoSsoToken  *token,
                     GError             **error)
{
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *old = NULL;
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GError) local_error = NULL;
  JsonObject *object;
  char *text;
  gsize len;
  gsize old_len;
  gboolean ok;

  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      int saved = errno;

      g_set_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG,
                   _("Could not create the folder %s: %s"), dir, g_strerror (saved));
      return FALSE;
    }
  if (g_file_get_contents (path, &old, &old_len, NULL))
    {
      root = dyno_json_parse (old, old_len, NULL);
      explicit_bzero (old, old_len);
      if (root != NULL && !JSON_NODE_HOLDS_OBJECT (root))
        g_clear_pointer (&root, json_node_unref);
    }
  if (root == NULL)
    {
      root = json_node_new (JSON_NODE_OBJECT);
      json_node_take_object (root, json_object_new ());
    }
  object = json_node_get_object (root);
  set_string (object, "startUrl", token->start_url);
  set_string (object, "region", token->region);
  set_string (object, "accessToken", token->access_token);
  set_time (object, "expiresAt", token->expires_at);
  set_string (object, "clientId", token->client_id);
  set_string (object, "clientSecret", token->client_secret);
  set_time (object, "registrationExpiresAt", token->registration_expires_at);
  set_string (object, "refreshToken", token->refresh_token);

  text = dyno_json_node_to_string (root, TRUE);
  len = strlen (text);
  ok = g_file_set_contents_full (path, text, len, G_FILE_SET_CONTENTS_CONSISTENT, 0600,
                                 &local_error);
  dyno_secret_free (text);
  if (!ok)
    {
      g_set_error (error, DYNO_ERROR, DYNO_ERROR_CONFIG,
                   _("Could not write the IAM Identity Center token cache %s: %s"), path,
                   local_error->message);
      return FALSE;
    }
  return TRUE;
}

/* ---- SSO-OIDC ----------------------------------------------------------------------------- */

void
dyno_oidc_client_clear (DynoOidcClient *client)
{
  g_clear_pointer (&client->client_id, g_free);
  g_clear_pointer (&client->client_secret, dyno_secret_free);
}

void
dyno_oidc_device_auth_clear (DynoOidcDeviceAuth *auth)
{
  g_clear_pointer (&auth->device_code, dyno_secret_free);
  g_clear_pointer (&auth->user_code, g_free);
  g_clear_pointer (&auth->verification_uri, g_free);
  g_clear_pointer (&auth->verification_uri_complete, g_free);
}

static void
set_oidc_error (GError      **error,
                SoupMessage  *message,
                JsonObject   *object,
                const char   *operation)
{
  g_autofree char *code = error_code (message, object);
  const char *text = error_message (object);

  g_set_error (error, DYNO_ERROR,
               soup_message_get_status (message) == 401 ? DYNO_ERROR_EXPIRED_TOKEN
               : DYNO_ERROR_SERVICE,
               /* Translators: the operation (such as CreateToken), the error code, then the
                * service's message. */
               _("IAM Identity Center (SSO-OIDC %s) failed: %s: %s"), operation,
               code != NULL ? code : soup_message_get_reason_phrase (message),
               text != NULL ? text : _("(no message)"));
}

gboolean
dyno_oidc_register_client (const char         *endpoint,
                           const char         *client_name,
                           const char * const *scopes,
                           DynoOidcClient     *client,
                           GCancellable       *cancellable,
                           GError            **error)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(SoupMessage) message = NULL;
  g_autoptr(JsonNode) root = NULL;
  JsonObject *object;
  guint status;

  json_builder_begin_object (builder);
  add_string_member (builder, "clientName", client_name);
  add_string_member (builder, "clientType", "public");
  if (scopes != NULL && scopes[0] != NULL)
    {
      json_builder_set_member_name (builder, "scopes");
      json_builder_begin_array (builder);
      for (guint i = 0; scopes[i] != NULL; i++)
        json_builder_add_string_value (builder, scopes[i]);
      json_builder_end_array (builder);
    }
  json_builder_end_object (builder);
  status = oidc_post (endpoint, "/client/register", builder, &message, &root, &object,
                      cancellable, error);
  if (status == 0)
    return FALSE;
  if (status != 200 || dyno_json_object_peek_string (object, "clientId") == NULL
      || dyno_json_object_peek_string (object, "clientSecret") == NULL)
    {
      set_oidc_error (error, message, object, "RegisterClient");
      return FALSE;
    }
  client->client_id = g_strdup (dyno_json_object_peek_string (object, "clientId"));
  client->client_secret = g_strdup (dyno_json_object_peek_string (object, "clientSecret"));
  client->client_secret_expires_at = 0;
  member_int (object, "clientSecretExpiresAt", &client->client_secret_expires_at);
  return TRUE;
}

gboolean
dyno_oidc_start_device_authorization (const char            *endpoint,
                                      const DynoOidcClient  *client,
                                      const char            *start_url,
                                      DynoOidcDeviceAuth    *auth,
                                      GCancellable          *cancellable,
                                      GError               **error)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(SoupMessage) message = NULL;
  g_autoptr(JsonNode) root = NULL;
  JsonObject *object;
  guint status;

  json_builder_begin_object (builder);
  add_string_member (builder, "clientId", client->client_id);
  add_string_member (builder, "clientSecret", client->client_secret);
  add_string_member (builder, "startUrl", start_url);
  json_builder_end_object (builder);
  status = oidc_post (endpoint, "/device_authorization", builder, &message, &root, &object,
                      cancellable, error);
  if (status == 0)
    return FALSE;
  if (status != 200 || dyno_json_object_peek_string (object, "deviceCode") == NULL
      || dyno_json_object_peek_string (object, "userCode") == NULL
      || dyno_json_object_peek_string (object, "verificationUri") == NULL)
    {
      set_oidc_error (error, message, object, "StartDeviceAuthorization");
      return FALSE;
    }
  auth->device_code = g_strdup (dyno_json_object_peek_string (object, "deviceCode"));
  auth->user_code = g_strdup (dyno_json_object_peek_string (object, "userCode"));
  auth->verification_uri = g_strdup (dyno_json_object_peek_string (object, "verificationUri"));
  auth->verification_uri_complete = g_strdup (dyno_json_object_peek_string (object,
                                                             "verificationUriComplete"));
  auth->expires_in = 600;
  member_int (object, "expiresIn", &auth->expires_in);
  auth->interval = 5;
  member_int (object, "interval", &auth->interval);
  if (auth->interval <= 0)
    auth->interval = 5;
  return TRUE;
}

DynoOidcStatus
dyno_oidc_create_token (const char     *endpoint,
                        const char     *client_id,
                        const char     *client_secret,
                        const char     *grant_type,
                        const char     *code,
                        DynoSsoToken   *token,
                        GCancellable   *cancellable,
                        GError        **error)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(SoupMessage) message = NULL;
  g_autoptr(JsonNode) root = NULL;
  gboolean refresh = g_str_equal (grant_type, "refresh_token");
  JsonObject *object;
  gint64 expires_in = 0;
  guint status;

  json_builder_begin_object (builder);
  add_string_member (builder, "clientId", client_id);
  add_string_member (builder, "clientSecret", client_secret);
  add_string_member (builder, "grantType", grant_type);
  add_string_member (builder, refresh ? "refreshToken" : "deviceCode", code);
  json_builder_end_object (builder);
  status = oidc_post (endpoint, "/token", builder, &message, &root, &object, cancellable,
                      error);
  if (status == 0)
    return DYNO_OIDC_FAILED;
  if (status != 200 || dyno_json_object_peek_string (object, "accessToken") == NULL)
    {
      g_autofree char *error_type = error_code (message, object);

      if (g_strcmp0 (error_type, "AuthorizationPendingException") == 0
          || g_strcmp0 (error_type, "authorization_pending") == 0)
        return DYNO_OIDC_PENDING;
      if (g_strcmp0 (error_type, "SlowDownException") == 0
          || g_strcmp0 (error_type, "slow_down") == 0)
        return DYNO_OIDC_SLOW_DOWN;
      set_oidc_error (error, message, object, "CreateToken");
      return DYNO_OIDC_FAILED;
    }
  g_clear_pointer (&token->access_token, dyno_secret_free);
  token->access_token = g_strdup (dyno_json_object_peek_string (object, "accessToken"));
  if (dyno_json_object_peek_string (object, "refreshToken") != NULL)
    {
      g_clear_pointer (&token->refresh_token, dyno_secret_free);
      token->refresh_token = g_strdup (dyno_json_object_peek_string (object, "refreshToken"));
    }
  if (!member_int (object, "expiresIn", &expires_in) || expires_in <= 0)
    expires_in = 3600;
  g_clear_pointer (&token->expires_at, g_date_time_unref);
  {
    g_autoptr(GDateTime) now = g_date_time_new_now_utc ();

    token->expires_at = g_date_time_add_seconds (now, (gdouble) expires_in);
  }
  return DYNO_OIDC_OK;
}
