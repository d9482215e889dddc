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

/* Frees a secret (a key, a token) after wiping it, so it does not linger in freed memory;
 * NULL is ignored. */
void             dyno_secret_free                       (char            *secret);

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

/* Where the credentials of a resolved configuration come from. */
typedef enum {
  DYNO_CREDENTIAL_KIND_NONE,
  DYNO_CREDENTIAL_KIND_CONNECTION,   /* keys given with the connection */
  DYNO_CREDENTIAL_KIND_ENVIRONMENT,  /* AWS_ACCESS_KEY_ID … */
  DYNO_CREDENTIAL_KIND_KEYS,         /* static keys of a profile */
  DYNO_CREDENTIAL_KIND_PROCESS,      /* credential_process */
  DYNO_CREDENTIAL_KIND_ROLE,         /* role_arn: STS AssumeRole */
  DYNO_CREDENTIAL_KIND_WEB_IDENTITY, /* STS AssumeRoleWithWebIdentity */
  DYNO_CREDENTIAL_KIND_SSO,          /* IAM Identity Center */
  DYNO_CREDENTIAL_KIND_LOCAL,        /* DynoTable's local key */
} DynoCredentialKind;

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
  /* Added (issue 13): the kind of the credentials, and the profile the connection named
   * explicitly (NULL when it came from AWS_PROFILE or the default), for refreshing. */
  DynoCredentialKind kind;
  char            *explicit_profile;
} DynoResolvedConfig;

void                dyno_resolved_config_free (DynoResolvedConfig *config);
DynoResolvedConfig *dyno_resolved_config_copy (const DynoResolvedConfig *config);
/* TRUE when dyno_credentials_refresh() can get new credentials for @config: a
 * credential_process, a role, web identity or IAM Identity Center. */
gboolean            dyno_resolved_config_can_refresh (const DynoResolvedConfig *config);
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

/* Asks for the code of the MFA device @mfa_serial that the profile @profile needs to assume
 * its role; @previous_error is STS's reason when the code given before was refused (then the
 * same code again ends the attempts).  Called from the thread that resolves; returns the
 * code, or NULL with @error. */
typedef char *(*DynoMfaPromptFunc) (const char  *profile,
                                    const char  *mfa_serial,
                                    const char  *previous_error,
                                    gpointer     user_data,
                                    GError     **error);

/* Installs the process-wide MFA prompt (NULL: none; then a profile with mfa_serial fails). */
void                dyno_credentials_set_mfa_prompt (DynoMfaPromptFunc func,
                                                     gpointer          user_data);
/* Forgets the temporary credentials kept in memory (per profile). */
void                dyno_credentials_clear_cache    (void);

/* The IAM Identity Center settings of a profile or an [sso-session] (for `sso login`). */
typedef struct {
  char  *profile;         /* nullable */
  char  *session_name;    /* NULL for a legacy profile */
  char  *start_url;
  char  *sso_region;
  char **scopes;          /* sso_registration_scopes, NULL-terminated (may be empty) */
  char  *cache_path;      /* ~/.aws/sso/cache/<sha1>.json */
  char  *oidc_endpoint;   /* after AWS_ENDPOINT_URL_SSO_OIDC … */
} DynoSsoConfig;

void                dyno_sso_config_free           (DynoSsoConfig *config);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DynoSsoConfig, dyno_sso_config_free)

/* The IAM Identity Center settings of @profile (NULL: AWS_PROFILE, else "default"), or of
 * the [sso-session @session] when @session is given. */
DynoSsoConfig      *dyno_sso_config_lookup         (char       **env,
                                                    const char  *profile,
                                                    const char  *session,
                                                    GError     **error);

/* The kind of credentials @profile names, without fetching them (botocore's order: a role,
 * web identity, IAM Identity Center, keys in the credentials file, credential_process, keys
 * in the config file); DYNO_CREDENTIAL_KIND_NONE when it names none, or the files cannot be
 * read, or there is no such profile. */
DynoCredentialKind  dyno_aws_profile_kind          (char       **env,
                                                    const char  *profile);
/* "access keys", "role", "IAM Identity Center", …: for the UI (translated). */
const char         *dyno_credential_kind_get_label (DynoCredentialKind kind);

/* Called (from the signing-in thread) once the device authorization has started: the person
 * opens @verification_uri (which holds the code when the service gave a complete one) and
 * checks that it shows @user_code. */
typedef void (*DynoSsoLoginPrompt) (const char *verification_uri,
                                    const char *user_code,
                                    gpointer    user_data);

/* Signs in to IAM Identity Center as `aws sso login` does: RegisterClient,
 * StartDeviceAuthorization, @prompt, then CreateToken every few seconds (more after
 * slow_down) until approved, denied, expired or @cancellable is cancelled; writes the token
 * cache of @config.  Blocking.  @until gets when the sign-in expires (nullable). */
gboolean            dyno_sso_login                 (const DynoSsoConfig *config,
                                                    DynoSsoLoginPrompt   prompt,
                                                    gpointer             user_data,
                                                    GDateTime          **until,
                                                    GCancellable        *cancellable,
                                                    GError             **error);

/* The folder of the SSO token cache for @env (HOME/.aws/sso/cache). */
char               *dyno_sso_cache_dir             (char       **env);

/* Gets new credentials for @config: re-runs its credential_process, or assumes its role, or
 * asks IAM Identity Center again (dyno_resolved_config_can_refresh()). */
DynoCredentials    *dyno_credentials_refresh   (const DynoResolvedConfig     *config,
                                                char                        **env,
                                                GCancellable                 *cancellable,
                                                GError                      **error);

G_END_DECLS
