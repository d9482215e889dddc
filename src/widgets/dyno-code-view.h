/* dyno-code-view.h: the request as expressions and as code for 15 targets
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "dyno-request.h"

G_BEGIN_DECLS

#define DYNO_TYPE_CODE_VIEW (dyno_code_view_get_type ())
G_DECLARE_FINAL_TYPE (DynoCodeView, dyno_code_view, DYNO, CODE_VIEW, GtkWidget)

GtkWidget  *dyno_code_view_new         (void);
/* @request may be NULL (the form is invalid): the view keeps the last text, dimmed. */
void        dyno_code_view_set_request (DynoCodeView      *self,
                                        const DynoRequest *request,
                                        const char        *endpoint_url,
                                        const char        *region);
/* @reason: why validation refuses the request shown (NULL when it does not).  A refused
 * request stays visible for reference, marked refused with the reason, and is not offered
 * for copying as working code. */
void        dyno_code_view_set_refused (DynoCodeView      *self,
                                        const char        *reason);
/* The code currently shown (for Ctrl+Shift+C); NULL while it is refused. */
const char *dyno_code_view_get_code    (DynoCodeView      *self);
void        dyno_code_view_copy        (DynoCodeView      *self);

G_END_DECLS
