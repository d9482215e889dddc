/* dyno-request-private.h: helpers shared by the request files
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "dyno-request.h"

G_BEGIN_DECLS

/* The request members DynoTable knows, as bits, so each operation's set is one mask. */
typedef enum {
  DYNO_MEMBER_TABLE_NAME                  = 1 << 0,
  DYNO_MEMBER_INDEX_NAME                  = 1 << 1,
  DYNO_MEMBER_KEY                         = 1 << 2,
  DYNO_MEMBER_ITEM                        = 1 << 3,
  DYNO_MEMBER_KEY_CONDITION_EXPRESSION    = 1 << 4,
  DYNO_MEMBER_UPDATE_EXPRESSION           = 1 << 5,
  DYNO_MEMBER_CONDITION_EXPRESSION        = 1 << 6,
  DYNO_MEMBER_FILTER_EXPRESSION           = 1 << 7,
  DYNO_MEMBER_PROJECTION_EXPRESSION       = 1 << 8,
  DYNO_MEMBER_EXPRESSION_ATTRIBUTE_NAMES  = 1 << 9,
  DYNO_MEMBER_EXPRESSION_ATTRIBUTE_VALUES = 1 << 10,
  DYNO_MEMBER_EXCLUSIVE_START_KEY         = 1 << 11,
  DYNO_MEMBER_LIMIT                       = 1 << 12,
  DYNO_MEMBER_SCAN_INDEX_FORWARD          = 1 << 13,
  DYNO_MEMBER_CONSISTENT_READ             = 1 << 14,
  DYNO_MEMBER_SELECT                      = 1 << 15,
  DYNO_MEMBER_RETURN_CONSUMED_CAPACITY    = 1 << 16,
  DYNO_MEMBER_RETURN_VALUES               = 1 << 17,
  DYNO_MEMBER_SEGMENT                     = 1 << 18,
  DYNO_MEMBER_TOTAL_SEGMENTS              = 1 << 19,
} DynoRequestMember;

/* The index of @text (exact) in @names, an enum's spellings indexed by value (NULL where a
 * value has none). */
gboolean    _dyno_lookup_name (const char * const *names,
                               guint               n_names,
                               const char         *text,
                               int                *out);

/* The members @op takes in DynamoDB's API (expression parameters only). */
guint       dyno_request_members_for_operation (DynoOperation op);

/* Prints the expressions of @request that its operation takes, in member order (key
 * condition, update, condition, filter, projection) with one shared printer, so the
 * placeholder maps read top to bottom like the request JSON. */
DynoPrintedRequest *dyno_request_print_internal (const DynoRequest *request,
                                                 gboolean           alias_all);

/* dyno_request_from_json() for a saved draft: a Query may lack its key condition (the draft
 * keeps its key by parts, perhaps unfinished). */
DynoRequest        *dyno_request_from_json_draft (const char        *json,
                                                  gssize             len,
                                                  DynoOperation      op,
                                                  GError           **error);

G_END_DECLS
