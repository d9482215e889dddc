"""dynotable-cli signs in the way the AWS CLI does: roles (chains, MFA, external id, duration),
web identity, IAM Identity Center (the AWS CLI's token cache, refresh, sso login/logout).

Everything runs against fixtures/fake_aws_auth.py on the loopback: a fake STS that verifies
the SigV4 signature of AssumeRole with the source credentials' secret, a fake SSO portal and
SSO-OIDC, and a DynamoDB front that accepts only the temporary credentials it should receive
(signature and session token).  Each case has its own HOME and AWS files.

Run by meson as  /usr/bin/python3 test_auth.py  (prints TAP).

SPDX-License-Identifier: GPL-3.0-or-later
"""

import datetime
import hashlib
import json
import os
import re
import stat
import subprocess
import sys
import tempfile
import traceback
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures"))
from fake_aws_auth import FakeAws  # noqa: E402

CLI = os.environ["DYNOTABLE_CLI"]
ACCOUNT = "111122223333"
SIMPLE = "arn:aws:iam::111122223333:role/Simple"
SECOND = "arn:aws:iam::111122223333:role/Second"
EXT = "arn:aws:iam::111122223333:role/Ext"
MFA = "arn:aws:iam::111122223333:role/Mfa"
MFA_SERIAL = "arn:aws:iam::111122223333:mfa/me"
DENIED = "arn:aws:iam::111122223333:role/Denied"
WEB = "arn:aws:iam::111122223333:role/Web"
START_URL = "https://corp.awsapps.example/start"

results = []
fake = FakeAws().start()
fake.roles = {
    SIMPLE: {},
    SECOND: {"source": SIMPLE},   # only the first role's credentials may assume it
    EXT: {"external_id": "ext-42"},
    MFA: {"mfa_serial": MFA_SERIAL, "mfa_code": "123456"},
    DENIED: {"deny": True},
    WEB: {"web_token": "web-identity-token-xyz"},
}
fake.secrets_seen.add(fake.users["AKIDSOURCE"])


def check(name, fn):
    fake.reset_calls()
    fake.sts_lifetime = None
    fake.revoke_previous = False
    try:
        with tempfile.TemporaryDirectory(prefix="dyno-auth-") as home:
            fn(home)
        results.append(None)
        print(f"ok {len(results)} - {name}", flush=True)
    except Exception:
        results.append(False)
        print(f"not ok {len(results)} - {name}", flush=True)
        for line in traceback.format_exc().splitlines():
            print(f"# {line}", flush=True)


def setup(home, config, credentials="", **extra):
    aws = os.path.join(home, ".aws")
    os.makedirs(aws, exist_ok=True)
    with open(os.path.join(aws, "config"), "w") as f:
        f.write(config)
    with open(os.path.join(aws, "credentials"), "w") as f:
        f.write(credentials)
    env = {k: v for k, v in os.environ.items() if not k.startswith("AWS_")}
    env["HOME"] = home
    env["AWS_CONFIG_FILE"] = os.path.join(aws, "config")
    env["AWS_SHARED_CREDENTIALS_FILE"] = os.path.join(aws, "credentials")
    env["AWS_EC2_METADATA_DISABLED"] = "true"
    env["AWS_ENDPOINT_URL_STS"] = fake.url
    env["AWS_ENDPOINT_URL_SSO"] = fake.url
    env["AWS_ENDPOINT_URL_SSO_OIDC"] = fake.url
    env.update(extra)
    return env


SOURCE_KEYS = "[base]\naws_access_key_id = AKIDSOURCE\naws_secret_access_key = " \
              f"{fake.users['AKIDSOURCE']}\n"


def run(env, *args, endpoint=True, stdin=subprocess.DEVNULL):
    argv = [CLI] + (["--endpoint-url", fake.url] if endpoint else []) + list(args)
    proc = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=120,
                          stdin=stdin)
    for secret in fake.secrets_seen:
        assert secret not in proc.stdout and secret not in proc.stderr, \
            f"a secret ({secret[:8]}…) appears in the output of {args}"
    return proc.returncode, proc.stdout, proc.stderr


def expect_tables(env, *args, **kw):
    status, out, err = run(env, *args, "tables", **kw)
    assert status == 0, f"exit {status}: {err}"
    assert out.split() == sorted(fake.tables), f"tables {out.split()!r}; stderr: {err}"
    return err


def expect_failure(env, words, *args):
    status, out, err = run(env, *args, "tables")
    assert status != 0, f"exit 0; stdout {out!r}"
    assert out == "", f"stdout {out!r}"
    for w in words:
        assert w in err, f"{w!r} not in {err!r}"
    assert fake.calls_of("dynamodb") == [], "something was sent to DynamoDB"
    return err


def ddb_roles():
    calls = fake.calls_of("dynamodb")
    assert calls and all(c["error"] is None for c in calls), calls
    return {c["role"] for c in calls}


# ---- the fake's own SigV4 verifier, against AWS's test vectors ----------------------------

VECTORS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "sigv4",
                       "botocore-aws4_testsuite")


class Headers(dict):
    def get(self, name, default=None):
        for k, v in self.items():
            if k.lower() == name.lower():
                return v
        return default


def case_verifier(home):
    from fake_aws_auth import verify_sigv4
    secret = {"AKIDEXAMPLE": "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"}.get
    for name in ["post-x-www-form-urlencoded", "get-vanilla-query-order-key-case"]:
        with open(os.path.join(VECTORS, name, name + ".sreq"), "rb") as f:
            raw = f.read().decode()
        head, _, body = raw.partition("\n\n")
        first, *lines = head.split("\n")
        method, path, _ = first.split(" ")
        headers = Headers(line.split(":", 1) for line in lines)
        assert verify_sigv4(method, path, headers, body.encode(), secret) == \
            ("AKIDEXAMPLE", "us-east-1", "service")
        for changed in [(method, path, headers, body.encode() + b"x"),
                        (method, path + "&x=1", headers, body.encode())]:
            try:
                verify_sigv4(*changed, secret)
            except ValueError as e:
                assert "does not match" in str(e)
            else:
                raise AssertionError(f"{name}: a changed request passed")


# ---- assume role ---------------------------------------------------------------------------

def case_role(home):
    env = setup(home, f"[profile r]\nregion = eu-west-3\nrole_arn = {SIMPLE}\n"
                      "source_profile = base\n", SOURCE_KEYS)
    expect_tables(env, "--profile", "r")
    [call] = fake.calls_of("AssumeRole")
    assert call["signed_by"] == "AKIDSOURCE", call
    assert call["region"] == "eu-west-3", call
    assert call["content_type"].startswith("application/x-www-form-urlencoded"), call
    assert re.fullmatch(r"botocore-session-\d{10}", call["form"]["RoleSessionName"]), call
    assert "DurationSeconds" not in call["form"] and "ExternalId" not in call["form"]
    assert ddb_roles() == {SIMPLE}


def case_chain(home):
    env = setup(home, f"[profile top]\nrole_arn = {SECOND}\nsource_profile = mid\n"
                      f"role_session_name = chained\n"
                      f"[profile mid]\nrole_arn = {SIMPLE}\nsource_profile = base\n",
                SOURCE_KEYS)
    expect_tables(env, "--profile", "top")
    first, second = fake.calls_of("AssumeRole")
    assert first["form"]["RoleArn"] == SIMPLE and first["signed_by"] == "AKIDSOURCE"
    assert second["form"]["RoleArn"] == SECOND and second["signed_by"] == first["issued"]
    assert second["form"]["RoleSessionName"] == "chained"
    assert ddb_roles() == {SECOND}


def case_cycle(home):
    env = setup(home, "[profile a]\nrole_arn = arn:aws:iam::1:role/A\nsource_profile = b\n"
                      "[profile b]\nrole_arn = arn:aws:iam::1:role/B\nsource_profile = a\n")
    expect_failure(env, ["“a”", "a → b → a"], "--profile", "a")
    assert fake.calls_of("AssumeRole") == []


def case_missing_source(home):
    env = setup(home, f"[profile r]\nrole_arn = {SIMPLE}\nsource_profile = gone\n")
    expect_failure(env, ["“r”", "“gone”", "config:3"], "--profile", "r")


def case_external_id_and_duration(home):
    env = setup(home, f"[profile x]\nrole_arn = {EXT}\nsource_profile = base\n"
                      "external_id = ext-42\nduration_seconds = 1800\n"
                      f"[profile wrong]\nrole_arn = {EXT}\nsource_profile = base\n"
                      "external_id = nope\n", SOURCE_KEYS)
    expect_tables(env, "--profile", "x")
    [call] = fake.calls_of("AssumeRole")
    assert call["form"]["ExternalId"] == "ext-42"
    assert call["form"]["DurationSeconds"] == "1800"
    fake.reset_calls()
    expect_failure(env, ["“wrong”", EXT, "AccessDenied", "External ID does not match"],
                   "--profile", "wrong")


def case_mfa(home):
    env = setup(home, f"[profile m]\nrole_arn = {MFA}\nsource_profile = base\n"
                      f"mfa_serial = {MFA_SERIAL}\n", SOURCE_KEYS)
    expect_tables(env, "--mfa-code", "123456", "--profile", "m")
    [call] = fake.calls_of("AssumeRole")
    assert call["form"]["SerialNumber"] == MFA_SERIAL and call["form"]["TokenCode"] == "123456"
    fake.reset_calls()
    err = expect_failure(env, ["“m”", MFA, "invalid MFA one time pass code"],
                         "--mfa-code=654321", "--profile", "m")
    assert "654321" not in err
    fake.reset_calls()
    expect_failure(env, ["“m”", "--mfa-code", MFA_SERIAL], "--profile", "m")
    assert fake.calls_of("AssumeRole") == []


def case_mfa_prompt(home):
    """On a terminal, without --mfa-code, the code is asked for (and not echoed)."""
    import pty
    import select
    env = setup(home, f"[profile m]\nrole_arn = {MFA}\nsource_profile = base\n"
                      f"mfa_serial = {MFA_SERIAL}\n", SOURCE_KEYS)
    master, slave = pty.openpty()
    proc = subprocess.Popen([CLI, "--endpoint-url", fake.url, "--profile", "m", "tables"],
                            env=env, stdin=slave, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    os.close(slave)

    def read_prompt():
        prompt = b""
        while MFA_SERIAL.encode() not in prompt or not prompt.endswith(b": "):
            ready, _, _ = select.select([proc.stderr], [], [], 60)
            assert ready, f"no prompt: {prompt!r}"
            chunk = os.read(proc.stderr.fileno(), 256)
            assert chunk, f"no prompt: {prompt!r}"
            prompt += chunk
        return prompt.decode()

    assert "profile m" in read_prompt()
    # a wrong code: STS's reason, and the question again
    os.write(master, b"000000\n")
    again = read_prompt()
    assert "not accepted" in again and "invalid MFA one time pass code" in again, again
    os.write(master, b"123456\n")
    out, err = proc.communicate(timeout=120)
    os.close(master)
    assert proc.returncode == 0, err
    assert out.decode().split() == sorted(fake.tables)
    wrong, right = fake.calls_of("AssumeRole")
    assert wrong["form"]["TokenCode"] == "000000"
    assert right["form"]["TokenCode"] == "123456"


def case_access_denied(home):
    env = setup(home, f"[profile d]\nrole_arn = {DENIED}\nsource_profile = base\n",
                SOURCE_KEYS)
    expect_failure(env, ["“d”", DENIED, "AccessDenied", "is not authorized to perform"],
                   "--profile", "d")


def case_credential_source_environment(home):
    env = setup(home, f"[profile e]\nrole_arn = {SIMPLE}\ncredential_source = Environment\n",
                AWS_ACCESS_KEY_ID="AKIDSOURCE",
                AWS_SECRET_ACCESS_KEY=fake.users["AKIDSOURCE"])
    expect_tables(env, "--profile", "e")
    [call] = fake.calls_of("AssumeRole")
    assert call["signed_by"] == "AKIDSOURCE"
    assert ddb_roles() == {SIMPLE}


def case_endpoints(home):
    # AWS_ENDPOINT_URL sends every service (DynamoDB too) to the fake; a services section
    # can name STS alone.
    env = setup(home, f"[profile r]\nregion = eu-west-3\nrole_arn = {SIMPLE}\n"
                      "source_profile = base\n", SOURCE_KEYS, AWS_ENDPOINT_URL=fake.url)
    del env["AWS_ENDPOINT_URL_STS"]
    expect_tables(env, "--profile", "r", endpoint=False)
    assert len(fake.calls_of("AssumeRole")) == 1
    fake.reset_calls()
    env = setup(home, f"[profile r]\nrole_arn = {SIMPLE}\nsource_profile = base\n"
                      "services = fake\n[services fake]\nsts =\n"
                      f"  endpoint_url = {fake.url}\n", SOURCE_KEYS)
    del env["AWS_ENDPOINT_URL_STS"]
    expect_tables(env, "--profile", "r")
    assert len(fake.calls_of("AssumeRole")) == 1


def case_refresh_during_paged_run(home):
    # Credentials that expire within the refresh window, and each new set replaces the
    # previous one: every page must go out with fresh, valid credentials.
    fake.sts_lifetime = 600
    fake.revoke_previous = True
    fake.tables = ["t1", "t2", "t3", "t4", "t5", "t6", "t7"]
    try:
        env = setup(home, f"[profile r]\nrole_arn = {SIMPLE}\nsource_profile = base\n",
                    SOURCE_KEYS)
        expect_tables(env, "--profile", "r")
        pages = fake.calls_of("dynamodb")
        assert len(pages) == 4, pages
        assert all(c["error"] is None for c in pages), pages
        assert len({c["akid"] for c in pages}) == 4, "the credentials were not refreshed"
        assert len(fake.calls_of("AssumeRole")) >= 4
    finally:
        fake.tables = ["alpha", "beta", "gamma"]


# ---- web identity --------------------------------------------------------------------------

def case_web_identity_profile(home):
    token = os.path.join(home, "token")
    with open(token, "w") as f:
        f.write("web-identity-token-xyz\n")
    env = setup(home, f"[profile w]\nrole_arn = {WEB}\nweb_identity_token_file = {token}\n"
                      "role_session_name = ci-job\n")
    expect_tables(env, "--profile", "w")
    [call] = fake.calls_of("AssumeRoleWithWebIdentity")
    assert call["form"]["RoleSessionName"] == "ci-job"
    assert ddb_roles() == {WEB}


def case_web_identity_env(home):
    token = os.path.join(home, "token")
    with open(token, "w") as f:
        f.write("web-identity-token-xyz")
    env = setup(home, "", AWS_WEB_IDENTITY_TOKEN_FILE=token, AWS_ROLE_ARN=WEB,
                AWS_ROLE_SESSION_NAME="from-env")
    expect_tables(env)
    [call] = fake.calls_of("AssumeRoleWithWebIdentity")
    assert call["form"]["RoleSessionName"] == "from-env"
    fake.reset_calls()
    with open(token, "w") as f:
        f.write("not-the-token")
    expect_failure(env, [WEB, "InvalidIdentityToken"])


# ---- IAM Identity Center -------------------------------------------------------------------

SSO_CONFIG = (f"[profile s]\nsso_session = corp\nsso_account_id = {ACCOUNT}\n"
              "sso_role_name = ReadOnly\nregion = us-east-1\n"
              f"[sso-session corp]\nsso_start_url = {START_URL}\nsso_region = eu-west-1\n"
              "sso_registration_scopes = sso:account:access\n"
              f"[profile legacy]\nsso_start_url = {START_URL}\nsso_region = eu-west-1\n"
              f"sso_account_id = {ACCOUNT}\nsso_role_name = ReadOnly\n")


def cache_file(home, key):
    return os.path.join(home, ".aws", "sso", "cache",
                        hashlib.sha1(key.encode()).hexdigest() + ".json")


def botocore_save(home, key_session, token):
    """The cache written by botocore's own loader (Debian's python3-botocore)."""
    code = ("import sys, json\n"
            "from botocore.utils import SSOTokenLoader, JSONFileCache\n"
            "loader = SSOTokenLoader(cache=JSONFileCache(sys.argv[1]))\n"
            "loader.save_token(sys.argv[2], json.loads(sys.argv[4]), "
            "session_name=sys.argv[3] or None)\n")
    subprocess.run(["/usr/bin/python3", "-c", code, os.path.join(home, ".aws", "sso", "cache"),
                    START_URL, key_session, json.dumps(token)], check=True)


def botocore_load(home, session):
    code = ("import sys, json\n"
            "from botocore.utils import SSOTokenLoader, JSONFileCache\n"
            "from botocore.utils import parse_timestamp\n"
            "loader = SSOTokenLoader(cache=JSONFileCache(sys.argv[1]))\n"
            "t = loader(sys.argv[2], session_name=sys.argv[3] or None)\n"
            "t['parsedExpiresAt'] = parse_timestamp(t['expiresAt']).isoformat()\n"
            "print(json.dumps(t))\n")
    out = subprocess.run(["/usr/bin/python3", "-c", code,
                          os.path.join(home, ".aws", "sso", "cache"), START_URL, session],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def future(seconds):
    when = datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(seconds=seconds)
    return when.strftime("%Y-%m-%dT%H:%M:%SZ")


def case_sso_cache_from_botocore(home):
    env = setup(home, SSO_CONFIG)
    token = fake.new_sso_token()
    botocore_save(home, "corp", {"startUrl": START_URL, "region": "eu-west-1",
                                 "accessToken": token, "expiresAt": future(3600)})
    expect_tables(env, "--profile", "s")
    [call] = fake.calls_of("GetRoleCredentials")
    assert call["token"] == token
    assert call["query"] == {"account_id": ACCOUNT, "role_name": "ReadOnly"}
    assert ddb_roles() == {"sso:ReadOnly"}
    # the legacy profile: the cache is keyed by the start URL
    fake.reset_calls()
    expect_failure(env, ["“legacy”", "dynotable-cli sso login --profile legacy"],
                   "--profile", "legacy")
    botocore_save(home, "", {"startUrl": START_URL, "region": "eu-west-1",
                             "accessToken": token, "expiresAt": future(3600)})
    fake.reset_calls()
    expect_tables(env, "--profile", "legacy")


def case_sso_no_token(home):
    env = setup(home, SSO_CONFIG)
    expect_failure(env, ["“s”", "dynotable-cli sso login --profile s"], "--profile", "s")
    assert fake.calls_of("GetRoleCredentials") == []


def case_sso_refresh(home):
    env = setup(home, SSO_CONFIG)
    client_id, client_secret, refresh = fake.new_client()
    path = cache_file(home, "corp")
    botocore_save(home, "corp", {"startUrl": START_URL, "region": "eu-west-1",
                                 "accessToken": fake.secret("stale-"),
                                 "expiresAt": "2020-01-01T00:00:00Z",
                                 "clientId": client_id, "clientSecret": client_secret,
                                 "registrationExpiresAt": future(86400),
                                 "refreshToken": refresh})
    expect_tables(env, "--profile", "s")
    [refresh_call] = fake.calls_of("oidc/token")
    assert refresh_call["request"]["grantType"] == "refresh_token"
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    saved = botocore_load(home, "corp")
    assert saved["accessToken"] == refresh_call["issued"]
    assert saved["refreshToken"] != refresh and saved["clientId"] == client_id
    assert saved["startUrl"] == START_URL and saved["region"] == "eu-west-1"
    assert saved["parsedExpiresAt"] > future(3600)
    [call] = fake.calls_of("GetRoleCredentials")
    assert call["token"] == refresh_call["issued"]


def case_sso_refresh_fails(home):
    env = setup(home, SSO_CONFIG)
    client_id, client_secret, _ = fake.new_client()
    botocore_save(home, "corp", {"startUrl": START_URL, "region": "eu-west-1",
                                 "accessToken": fake.secret("stale-"),
                                 "expiresAt": "2020-01-01T00:00:00Z",
                                 "clientId": client_id, "clientSecret": client_secret,
                                 "registrationExpiresAt": future(86400),
                                 "refreshToken": fake.secret("revoked-")})
    expect_failure(env, ["“s”", "expired", "dynotable-cli sso login --profile s"],
                   "--profile", "s")
    # a token the portal no longer takes
    botocore_save(home, "corp", {"startUrl": START_URL, "region": "eu-west-1",
                                 "accessToken": fake.secret("revoked-"),
                                 "expiresAt": future(3600)})
    fake.reset_calls()
    expect_failure(env, ["“s”", "dynotable-cli sso login --profile s"], "--profile", "s")


def case_sso_login_logout(home):
    env = setup(home, SSO_CONFIG)
    proc = subprocess.Popen([CLI, "sso", "login", "--profile", "s", "--no-browser"], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    url = None
    lines = []
    while url is None:
        line = proc.stdout.readline()
        assert line, f"no address printed: {lines!r}"
        lines.append(line)
        m = re.search(r"(http://\S+/approve\?user_code=(\S+))", line)
        if m:
            url = m.group(1)
    code = url.split("=")[-1]
    # the printed page must show the code; approve as the person in the browser would
    urllib.request.urlopen(url).read()
    rest, err = proc.communicate(timeout=120)
    out = "".join(lines) + rest
    assert proc.returncode == 0, f"exit {proc.returncode}: {err}"
    assert code in out and START_URL in out, out
    for secret in fake.secrets_seen:
        assert secret not in out and secret not in err
    [register] = fake.calls_of("oidc/client/register")
    assert register["scopes"] == ["sso:account:access"], register
    polls = [t for kind, t in fake.poll_times if kind == "poll"]
    slow = [t for kind, t in fake.poll_times if kind == "slow_down"]
    assert len(polls) >= 3 and len(slow) == 1, fake.poll_times
    after = [t for t in polls if t > slow[0]]
    assert after and after[0] - slow[0] >= 5.5, "slow_down was not honoured"
    saved = botocore_load(home, "corp")
    assert saved["accessToken"] == fake.calls_of("oidc/token")[-1]["issued"]
    assert saved["clientId"].startswith("client-"), saved["clientId"]
    assert saved["refreshToken"] and saved["clientSecret"] and saved["registrationExpiresAt"]
    assert stat.S_IMODE(os.stat(cache_file(home, "corp")).st_mode) == 0o600
    fake.reset_calls()
    expect_tables(env, "--profile", "s")
    # logout forgets it (and a file the AWS CLI wrote for the legacy profile)
    botocore_save(home, "", {"startUrl": START_URL, "region": "eu-west-1",
                             "accessToken": fake.new_sso_token(), "expiresAt": future(3600)})
    status, out, err = run(env, "sso", "logout", endpoint=False)
    assert status == 0, err
    assert "2" in out, out
    assert not os.path.exists(cache_file(home, "corp"))
    assert not os.path.exists(cache_file(home, START_URL))
    fake.reset_calls()
    expect_failure(env, ["dynotable-cli sso login --profile s"], "--profile", "s")


def case_sso_login_errors(home):
    env = setup(home, SSO_CONFIG + "[profile plain]\nregion = us-east-1\n")
    status, out, err = run(env, "sso", "login", "--profile", "plain", endpoint=False)
    assert status == 2 and "“plain”" in err and "sso_session" in err, err
    status, out, err = run(env, "sso", "login", "--sso-session", "nope", endpoint=False)
    assert status == 2 and "[sso-session nope]" in err, err


def main():
    cases = [
        ("the fake verifies SigV4 as AWS's test vectors say", case_verifier),
        ("assume role with a source profile, SigV4 verified by STS", case_role),
        ("a chain of roles, each signed with the one before", case_chain),
        ("a cycle of source profiles is named", case_cycle),
        ("a missing source profile is named", case_missing_source),
        ("external_id and duration_seconds", case_external_id_and_duration),
        ("MFA: --mfa-code, a wrong code, no code without a terminal", case_mfa),
        ("MFA: the code asked for on a terminal, again when refused", case_mfa_prompt),
        ("STS AccessDenied names the role and STS's reason", case_access_denied),
        ("credential_source = Environment", case_credential_source_environment),
        ("endpoints: AWS_ENDPOINT_URL and a services section", case_endpoints),
        ("credentials refreshed during a long paged run", case_refresh_during_paged_run),
        ("web identity from a profile", case_web_identity_profile),
        ("web identity from the environment", case_web_identity_env),
        ("IAM Identity Center with a cache written by botocore", case_sso_cache_from_botocore),
        ("IAM Identity Center without a cached token", case_sso_no_token),
        ("an expired token is refreshed and the cache rewritten", case_sso_refresh),
        ("an expired token that cannot be refreshed", case_sso_refresh_fails),
        ("sso login (device flow, slow_down) read by botocore, then logout",
         case_sso_login_logout),
        ("sso login errors", case_sso_login_errors),
    ]
    for name, fn in cases:
        check(name, fn)
    print(f"1..{len(results)}", flush=True)
    fake.stop()
    return 0 if all(r is None for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
