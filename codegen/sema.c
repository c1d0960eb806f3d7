#include "tgm.h"
const char *codelet_kind_name(CodeletKind k) { (void)k; return "?"; }
const char *part_kind_name(PartKind k) { (void)k; return "?"; }
void sema_check(Ctx *ctx, Program *prog) { (void)ctx; for (int i=0;i<prog->codelets.len;i++){Codelet*c=prog->codelets.items[i]; c->id=c->tag?c->tag:"?";} }
