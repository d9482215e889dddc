/* dyno-credentials.h: AWS credentials and their resolution as the SDKs do it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* Immutable, refcounted.  The secret never appears in logs or in to-string helpers. */
typedef struct _DynoCredentials DynoCredentials;

#define DYNO_TYPE_CREDENTIALS (dyno_credentials_get_type ())
GType            dyno_credentials_get_type              (void) G_GNUC_CONST;

DynoCredentials *dyno_credentials_new                   (const char      *access_key_id,
                                                         const char      *secret_access_key,
                                                         const char      *session_token,   /* nullable */
                                                         GDateTime       *expiration);     /* nullable */
DynoCredentials *dyno_credentials_ref                   (DynoCredentials *creds);
void             dyno_credentials_unref                 (DynoCredentials *creds);
const char      *dyno_credentials_get_access_key_id     (DynoCredentials *creds);
const char      *dyno_credentials_get_secret_access_key (DynoCredentials *creds);
const char      *dyno_credentials_get_session_token     (DynoCredentials *creds);
GDateTime       *dyno_credentials_get_expiration        (DynoCredentials *creds);
/* TRUE when expiring within @margin_seconds (refresh before use). */
gboolean         dyno_credentials_is_expiring           (DynoCredentials *creds,
                                                         gint64           margin_seconds);
/* Where they came from, for the UI ("environment", "profile dev (~/.aws/credentials)",
 * "credential_process of profile dev", "keyring", "connection"). */
const char      *dyno_credentials_get_source            (DynoCredentials *creds);
void             dyno_credentials_set_source            (DynoCredentials *creds,
                                                         const char      *source);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DynoCredentials, dyno_credentials_unref)

/* DynoTable's own key for DynamoDB Local, used when nothing else names credentials.  DynamoDB
 * Local answers UnrecognizedClientException to a key ID with anything but letters and digits. */
#define DYNO_LOCAL_ACCESS_KEY_ID     "dynotablelocal"
#define DYNO_LOCAL_SECRET_ACCESS_KEY "dynotablelocal"

/* What a connection asks for; every field nullable. */
typedef struct {
  char *profile;        /* explicit profile (skips the environment keys, as botocore does) */
  char *region;         /* explicit region */
  char *endpoint_url;   /* explicit endpoint: always wins */
  char *access_key_id;  /* explicit keys (from the keyring, or given on the command line) */
  char *secret_access_key;
  char *session_token;
} DynoConnectionSettings;

/* The result of resolving settings against the environment and the AWS files. */
typedef struct {
  char            *region;         /* never NULL after a successful resolve */
  char            *endpoint_url;   /* NULL: the regional AWS endpoint */
  char            *profile;        /* the profile used, or NULL */
  DynoCredentials *credentials;    /* NULL only when none could be found (an error) */
  char            *credential_process; /* set when credentials come from a process: refresh */
  /* Added: DynoEndpointFlags (dyno-endpoints.h) from AWS_USE_FIPS_ENDPOINT /
   * use_fips_endpoint and AWS_USE_DUALSTACK_ENDPOINT / use_dualstack_endpoint; pass them to
   * dyno_endpoint_resolve(). */
  guint            endpoint_flags;
} DynoResolvedConfig;

void dyno_resolved_config_free (DynoResolvedConfig *config);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DynoResolvedConfig, dyno_resolved_config_free)

/* Resolves region, endpoint and credentials (dynamodb-facts.md §7): explicit settings, then
 * AWS_* environment variables, then the credentials and config files (AWS_CONFIG_FILE,
 * AWS_SHARED_CREDENTIALS_FILE), credential_process.  When none of those names any credentials
 * and the endpoint is on this computer (DynamoDB Local: a loopback endpoint URL, or the region
 * "local"), the result signs with DYNO_LOCAL_ACCESS_KEY_ID; a profile that does not exist is
 * still an error.  The app and dynotable-cli both resolve through here, so they sign alike.
 * @env is an environ-style array
 * (g_get_environ() in production, a fixed one in tests).  Blocking (it may run
 * credential_process); call it from a thread or through the _async variant.  Errors are
 * DYNO_ERROR_CONFIG with the file and line, or a clear message for what is not supported
 * (role_arn/source_profile, SSO). */
DynoResolvedConfig *dyno_resolve_config        (const DynoConnectionSettings *settings,
                                                char                        **env,
                                                GCancellable                 *cancellable,
                                                GError                      **error);
void                dyno_resolve_config_async  (const DynoConnectionSettings *settings,
                                                GCancellable                 *cancellable,
                                                GAsyncReadyCallback           callback,
                                                gpointer                      user_data);
DynoResolvedConfig *dyno_resolve_config_finish (GAsyncResult                 *result,
                                                GError                      **error);

/* The profiles of the config and credentials files (as dyno_resolve_config() finds them from
 * @env, NULL for the process's own), sorted, each once; an empty array when there are none.
 * Errors: DYNO_ERROR_CONFIG for a file that cannot be read or parsed. */
GStrv               dyno_aws_list_profiles     (char                        **env,
                                                GError                      **error);

/* TRUE when @profile is in the config or credentials file; else the error
 * dyno_resolve_config() gives for it, saying it came from @from ("--profile", …). */
gboolean            dyno_aws_check_profile     (char                        **env,
                                                const char                   *profile,
                                                const char                   *from,
                                                GError                      **error);

/* Re-runs the credential_process of @config (when it has one). */
DynoCredentials    *dyno_credentials_refresh   (const DynoResolvedConfig     *config,
                                                char                        **env,
                                                GCancellable                 *cancellable,
                                                GError                      **error);

G_END_DECLS
