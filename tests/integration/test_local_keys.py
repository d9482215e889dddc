"""dynotable-cli sees the tables a user made in DynamoDB Local under their own key.

DynamoDB Local started the way its documentation and container image start it (without
-sharedDb) keeps one database per access key ID and region.  Tables are made here with the AWS
CLI (/usr/bin/aws) under one key and region; dynotable-cli must see them with the same
--profile, the same environment keys, or the same [default] profile, as the AWS CLI would, and
say which key and region it used when it sees none.

Run by meson as  with-ddb-local.sh --per-key /usr/bin/python3 test_local_keys.py
(a server of its own, without -sharedDb).  Prints TAP.

SPDX-License-Identifier: GPL-3.0-or-later
"""

import os
import subprocess
import sys
import tempfile
import traceback

CLI = os.environ["DYNOTABLE_CLI"]
ENDPOINT = os.environ["DYNO_TEST_ENDPOINT"]
AWS = "/usr/bin/aws"

results = []


def check(name, fn):
    try:
        fn()
        results.append(None)
        print(f"ok {len(results)} - {name}", flush=True)
    except Exception as e:  # report, then go on with the next case
        results.append(e)
        print(f"not ok {len(results)} - {name}", flush=True)
        for line in traceback.format_exc().splitlines():
            print(f"# {line}", flush=True)


def clean_env(home, **extra):
    """An environment with no AWS settings but those given, and AWS files under @home."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("AWS_")}
    env["HOME"] = home
    env["AWS_EC2_METADATA_DISABLED"] = "true"
    env.update(extra)
    return env


def write_aws_files(home, config, credentials):
    os.makedirs(os.path.join(home, ".aws"), exist_ok=True)
    with open(os.path.join(home, ".aws", "config"), "w") as f:
        f.write(config)
    with open(os.path.join(home, ".aws", "credentials"), "w") as f:
        f.write(credentials)


def aws_create_table(env, name):
    subprocess.run([AWS, "dynamodb", "create-table", "--endpoint-url", ENDPOINT,
                    "--table-name", name,
                    "--attribute-definitions", "AttributeName=pk,AttributeType=S",
                    "--key-schema", "AttributeName=pk,KeyType=HASH",
                    "--billing-mode", "PAY_PER_REQUEST", "--output", "json"],
                   env=env, check=True, stdout=subprocess.DEVNULL, timeout=120)


def cli(env, *args):
    proc = subprocess.run([CLI, "--endpoint-url", ENDPOINT] + list(args), env=env,
                          capture_output=True, text=True, timeout=120)
    return proc.returncode, proc.stdout, proc.stderr


def expect_tables(env, want, *args):
    status, out, err = cli(env, *args, "tables")
    assert status == 0, f"exit {status}: {err}"
    assert out.split() == want, f"tables {out.split()!r}, want {want!r}; stderr: {err}"
    return err


def main():
    with tempfile.TemporaryDirectory(prefix="dyno-local-keys-") as home:
        # The user's files: [default] signs as AKIDDEFAULT; profile dev as AKIDDEV (eu-west-1).
        write_aws_files(home,
                        "[default]\nregion = us-east-1\n[profile dev]\nregion = eu-west-1\n",
                        "[default]\naws_access_key_id = AKIDDEFAULT\naws_secret_access_key = x\n"
                        "[dev]\naws_access_key_id = AKIDDEV\naws_secret_access_key = y\n")
        # Tables made with the AWS CLI, each in the database of one key and region.
        aws_create_table(clean_env(home, AWS_ACCESS_KEY_ID="AKIDENV",
                                   AWS_SECRET_ACCESS_KEY="z", AWS_REGION="ap-south-1"),
                         "made-with-env-keys")
        aws_create_table(clean_env(home, AWS_PROFILE="dev"), "made-with-profile-dev")
        aws_create_table(clean_env(home), "made-with-default")

        check("--profile signs as the profile, in its region",
              lambda: expect_tables(clean_env(home), ["made-with-profile-dev"], "--profile", "dev"))
        check("environment keys and AWS_REGION, as the AWS CLI uses them",
              lambda: expect_tables(clean_env(home, AWS_ACCESS_KEY_ID="AKIDENV",
                                              AWS_SECRET_ACCESS_KEY="other-secret",
                                              AWS_REGION="ap-south-1"),
                                    ["made-with-env-keys"]))
        check("AWS_PROFILE",
              lambda: expect_tables(clean_env(home, AWS_PROFILE="dev"), ["made-with-profile-dev"]))
        check("the [default] profile",
              lambda: expect_tables(clean_env(home), ["made-with-default"]))
        check("--region wins over the profile's region (another database)",
              lambda: expect_tables(clean_env(home), [], "--profile", "dev", "--region",
                                    "us-east-1"))

        def empty_explains():
            err = expect_tables(clean_env(home, AWS_ACCESS_KEY_ID="AKIDNOBODY",
                                          AWS_SECRET_ACCESS_KEY="s", AWS_REGION="us-east-1"), [])
            assert "AKIDNOBODY" in err and "us-east-1" in err, err
            assert "-sharedDb" in err, err

        check("an empty list names the key and region and why", empty_explains)

        def no_credentials_at_all():
            with tempfile.TemporaryDirectory(prefix="dyno-empty-home-") as empty:
                err = expect_tables(clean_env(empty), [])
                assert "dynotablelocal" in err, err

        check("no credentials anywhere: DynoTable's local key, named", no_credentials_at_all)

        def missing_profile():
            status, out, err = cli(clean_env(home), "--profile", "nosuch", "tables")
            assert status == 2, (status, err)
            assert out == "", out
            assert "“nosuch”" in err and "--profile" in err, err

        check("a profile that does not exist is named, nothing sent", missing_profile)

        def bad_url():
            proc = subprocess.run([CLI, "--endpoint-url", "localhost 8000", "tables"],
                                  env=clean_env(home), capture_output=True, text=True, timeout=60)
            assert proc.returncode == 2, (proc.returncode, proc.stderr)
            assert "--endpoint-url" in proc.stderr and "localhost 8000" in proc.stderr, proc.stderr

        check("an endpoint URL that is not a URL is named", bad_url)

    print(f"1..{len(results)}", flush=True)
    return 1 if any(results) else 0


if __name__ == "__main__":
    sys.exit(main())
