/* dyno-aws-config.h: parser for the shared AWS files ~/.aws/config and ~/.aws/credentials
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Which file a text comes from: section names are read differently in each. */
typedef enum {
  DYNO_AWS_FILE_CONFIG,       /* [default], [profile NAME], [sso-session NAME], [services NAME] */
  DYNO_AWS_FILE_CREDENTIALS,  /* [NAME]: bare profile names */
} DynoAwsFileKind;

typedef enum {
  DYNO_AWS_SECTION_PROFILE,
  DYNO_AWS_SECTION_SSO_SESSION,
  DYNO_AWS_SECTION_SERVICES,
} DynoAwsSectionKind;

/* One parsed file (immutable after parsing). */
typedef struct _DynoAwsConfig DynoAwsConfig;
/* One section of it; owned by its DynoAwsConfig. */
typedef struct _DynoAwsSection DynoAwsSection;

/* Parses @text (@length bytes, or -1 when NUL-terminated).  @filename is only used in error
 * messages ("FILE:LINE: what is wrong"), which are DYNO_ERROR_CONFIG.  A section given twice
 * is merged, and a key given twice keeps its last value, as the SDKs do.  Comments are lines
 * starting with '#' or ';', and text after " #" / " ;" (whitespace before) on a property or
 * section line.  Properties with an empty value followed by indented "key = value" lines
 * hold sub-properties ("dynamodb =\n  endpoint_url = …"); other indented lines continue the
 * value of the property above. */
DynoAwsConfig  *dyno_aws_config_parse             (const char         *text,
                                                   gssize              length,
                                                   const char         *filename,
                                                   DynoAwsFileKind     kind,
                                                   GError            **error);
/* Reads and parses @path.  A file that does not exist is an empty config, not an error. */
DynoAwsConfig  *dyno_aws_config_load              (const char         *path,
                                                   DynoAwsFileKind     kind,
                                                   GError            **error);
void            dyno_aws_config_free              (DynoAwsConfig      *config);
const char     *dyno_aws_config_get_filename      (DynoAwsConfig      *config);
/* FALSE when the file did not exist (dyno_aws_config_load). */
gboolean        dyno_aws_config_get_exists        (DynoAwsConfig      *config);
DynoAwsSection *dyno_aws_config_get_section       (DynoAwsConfig      *config,
                                                   DynoAwsSectionKind  kind,
                                                   const char         *name);
/* Profile names in file order, without the "profile " prefix. */
GStrv           dyno_aws_config_dup_profile_names (DynoAwsConfig      *config);

const char     *dyno_aws_section_get_name         (DynoAwsSection     *section);
/* The line of the section header (the first one when the section was given twice). */
guint           dyno_aws_section_get_line         (DynoAwsSection     *section);
/* Value of @key (keys are case-insensitive), or NULL.  A property with sub-properties has the
 * value "". */
const char     *dyno_aws_section_get              (DynoAwsSection     *section,
                                                   const char         *key);
/* The line where @key was set, or 0 when it was not. */
guint           dyno_aws_section_get_key_line     (DynoAwsSection     *section,
                                                   const char         *key);
/* Value of the sub-property @sub_key of @key, or NULL. */
const char     *dyno_aws_section_get_sub          (DynoAwsSection     *section,
                                                   const char         *key,
                                                   const char         *sub_key);
guint           dyno_aws_section_get_sub_line     (DynoAwsSection     *section,
                                                   const char         *key,
                                                   const char         *sub_key);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DynoAwsConfig, dyno_aws_config_free)

G_END_DECLS
