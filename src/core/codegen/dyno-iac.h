/* dyno-iac.h: a table as infrastructure as code — CloudFormation (YAML, JSON), the AWS CDK
 * (TypeScript) and Terraform (HCL)
 *
 * Everything a table is made with: its keys, the attribute definitions its keys need (and
 * no others), its GSIs and LSIs with their projections, billing mode and throughput, table
 * class, TTL, stream, point-in-time recovery, encryption with a customer key, tags and
 * deletion protection.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

#include "dyno-table-info.h"

G_BEGIN_DECLS

typedef enum {
  DYNO_IAC_CLOUDFORMATION_YAML,
  DYNO_IAC_CLOUDFORMATION_JSON,
  DYNO_IAC_CDK,
  DYNO_IAC_TERRAFORM,
} DynoIacFormat;

/* "cloudformation" (YAML), "cloudformation-json", "cdk", "terraform" */
gboolean dyno_iac_format_from_string (const char    *text,
                                      DynoIacFormat *out);

typedef struct {
  DynoTableInfo *info;                 /* keys, indexes, billing, throughput */
  char          *arn;                  /* TableArn, or NULL */
  char          *table_class;          /* NULL: STANDARD */
  char          *stream_view_type;     /* NULL: no stream */
  gboolean       deletion_protection;
  char          *kms_key;              /* SSE with a KMS key (its ARN), or NULL */
  char          *ttl_attribute;        /* NULL: TTL off */
  gboolean       point_in_time_recovery;
  GPtrArray     *tags;                 /* char*: key, value, key, value, … */
  GPtrArray     *unknown;              /* char*: what could not be read ("tags: …") */
} DynoIacTable;

/* From a DescribeTable response ({"Table": …} or the TableDescription). */
DynoIacTable *dyno_iac_table_new_from_description (JsonNode      *description,
                                                   GError       **error);
void          dyno_iac_table_free                 (DynoIacTable  *table);

/* The answers of DescribeTimeToLive, DescribeContinuousBackups and ListTagsOfResource. */
void          dyno_iac_table_read_ttl             (DynoIacTable  *table,
                                                   JsonNode      *response);
void          dyno_iac_table_read_backups         (DynoIacTable  *table,
                                                   JsonNode      *response);
void          dyno_iac_table_read_tags            (DynoIacTable  *table,
                                                   JsonNode      *response);
/* What could not be read (@what: "TTL", "tags", …, @why: the server's words): written as a
 * comment in the output, so nothing is left out silently. */
void          dyno_iac_table_note_unknown         (DynoIacTable  *table,
                                                   const char    *what,
                                                   const char    *why);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DynoIacTable, dyno_iac_table_free)

/* The CloudFormation Properties of AWS::DynamoDB::Table for @table. */
JsonNode     *dyno_iac_cloudformation_properties  (const DynoIacTable *table);

/* One document for all of @tables (DynoIacTable*). */
char         *dyno_iac_generate                   (GPtrArray          *tables,
                                                   DynoIacFormat       format);

G_END_DECLS
