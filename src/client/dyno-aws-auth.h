/* dyno-aws-auth.h: the AWS services that hand out temporary credentials: STS (AssumeRole,
 * AssumeRoleWithWebIdentity), the IAM Identity Center portal (GetRoleCredentials), SSO-OIDC
 * (RegisterClient, StartDeviceAuthorization, CreateToken), and the SSO token cache the AWS CLI
 * keeps in ~/.aws/sso/cache.
 *
 * Every call here is blocking (a synchronous libsoup session): call it from a thread.  No
 * secret (keys, tokens, client secrets) ever goes into an error message or a log line.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "dyno-credentials.h"

G_BEGIN_DECLS

/* ---- STS ---------------------------------------------------------------------------------- */

typedef struct {
  const char *role_arn;
  const char *session_name;
  const char *external_id;      /* nullable */
  const char *mfa_serial;       /* nullable */
  const char *mfa_code;         /* with mfa_serial */
  gint64      duration_seconds; /* 0: STS's default */
} DynoAssumeRoleParams;

/* https://sts.REGION.amazonaws.com */
char            *dyno_sts_default_endpoint          (const char                  *region);

/* AssumeRole signed SigV4 with @source.  Errors: DYNO_ERROR_AUTH with the role ARN and STS's
 * message (AccessDenied, a bad MFA code), DYNO_ERROR_NETWORK, DYNO_ERROR_SERVICE. */
DynoCredentials *dyno_sts_assume_role               (const char                  *endpoint,
                                                     const char                  *region,
                                                     DynoCredentials             *source,
                                                     const DynoAssumeRoleParams  *params,
                                                     GCancellable                *cancellable,
                                                     GError                     **error);
/* AssumeRoleWithWebIdentity, unsigned. */
DynoCredentials *dyno_sts_assume_role_with_web_identity (const char              *endpoint,
                                                     const DynoAssumeRoleParams  *params,
                                                     const char                  *token,
                                                     GCancellable                *cancellable,
                                                     GError                     **error);

/* ---- IAM Identity Center ------------------------------------------------------------------ */

/* https://portal.sso.REGION.amazonaws.com and https://oidc.REGION.amazonaws.com */
char            *dyno_sso_default_endpoint          (const char                  *region);
char            *dyno_sso_oidc_default_endpoint     (const char                  *region);

/* GetRoleCredentials.  An UnauthorizedException (the token was revoked or expired) is
 * DYNO_ERROR_EXPIRED_TOKEN. */
DynoCredentials *dyno_sso_get_role_credentials      (const char                  *endpoint,
                                                     const char                  *access_token,
                                                     const char                  *account_id,
                                                     const char                  *role_name,
                                                     GCancellable                *cancellable,
                                                     GError                     **error);

/* The SSO token as the AWS CLI caches it (every member may be NULL but the access token). */
typedef struct {
  char      *access_token;
  GDateTime *expires_at;
  char      *refresh_token;
  char      *client_id;
  char      *client_secret;
  GDateTime *registration_expires_at;
  char      *region;
  char      *start_url;
} DynoSsoToken;

void          dyno_sso_token_free         (DynoSsoToken  *token);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DynoSsoToken, dyno_sso_token_free)

/* HOME/.aws/sso/cache/<sha1 hex of @key>.json; @key is the sso-session name, or the start URL
 * of a legacy profile. */
char         *dyno_sso_cache_path         (const char    *home,
                                           const char    *key);
/* NULL without an error when the file does not exist. */
DynoSsoToken *dyno_sso_token_load         (const char    *path,
                                           GError       **error);
/* Writes @token to @path atomically, mode 0600, keeping members of an existing file this code
 * does not know. */
gboolean      dyno_sso_token_save         (const char    *path,
                                           const DynoSsoToken *token,
                                           GError       **error);

/* Errors of CreateToken in the device flow. */
typedef enum {
  DYNO_OIDC_OK,
  DYNO_OIDC_PENDING,       /* authorization_pending */
  DYNO_OIDC_SLOW_DOWN,     /* slow_down */
  DYNO_OIDC_FAILED,        /* anything else: @error is set */
} DynoOidcStatus;

typedef struct {
  char   *client_id;
  char   *client_secret;
  gint64  client_secret_expires_at;   /* unix seconds */
} DynoOidcClient;

typedef struct {
  char   *device_code;
  char   *user_code;
  char   *verification_uri;
  char   *verification_uri_complete;
  gint64  expires_in;
  gint64  interval;
} DynoOidcDeviceAuth;

void     dyno_oidc_client_clear        (DynoOidcClient     *client);
void     dyno_oidc_device_auth_clear   (DynoOidcDeviceAuth *auth);

gboolean dyno_oidc_register_client     (const char         *endpoint,
                                        const char         *client_name,
                                        const char * const *scopes,   /* nullable */
                                        DynoOidcClient     *client,
                                        GCancellable       *cancellable,
                                        GError            **error);
gboolean dyno_oidc_start_device_authorization (const char      *endpoint,
                                        const DynoOidcClient *client,
                                        const char         *start_url,
                                        DynoOidcDeviceAuth *auth,
                                        GCancellable       *cancellable,
                                        GError            **error);
/* CreateToken: @grant_type "urn:ietf:params:oauth:grant-type:device_code" with @code the
 * device code, or "refresh_token" with @code the refresh token.  On success fills
 * access_token, expires_at and refresh_token (kept when the answer has none) of @token. */
DynoOidcStatus dyno_oidc_create_token  (const char         *endpoint,
                                        const char         *client_id,
                                        const char         *client_secret,
                                        const char         *grant_type,
                                        const char         *code,
                                        DynoSsoToken       *token,
                                        GCancellable       *cancellable,
                                        GError            **error);

G_END_DECLS
