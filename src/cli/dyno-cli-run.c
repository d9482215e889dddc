/* placeholder until the run subcommands land */
#include "config.h"
#include <stdio.h>
#include "dyno-cli.h"
int
dyno_cli_run (int argc, char **argv)
{
  fprintf (stderr, "dynotable-cli: not built yet\n");
  return 2;
}
