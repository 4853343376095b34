/* templates.c: finding a template: a file in the --templates directory when
 * one is given, else the copy compiled in from templates/. */
#include "emit.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct cg_embedded {
    const char *name, *text;
} cg_embedded;
extern const cg_embedded cg_embedded_templates[];

char *cg_template(const char *dir, const char *name, char *err, size_t cap)
{
    if (dir) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, name);
        FILE *f = fopen(path, "rb");
        if (!f) {
            snprintf(err, cap, "%s: %s", path, strerror(errno));
            return NULL;
        }
        sb text = {0};
        char buf[4096];
        size_t n;
        while ((n = fread(buf, 1, sizeof buf, f)) > 0)
            sb_putn(&text, buf, n);
        fclose(f);
        return sb_take(&text);
    }
    for (const cg_embedded *t = cg_embedded_templates; t->name; t++)
        if (!strcmp(t->name, name))
            return cg_strdup(t->text);
    snprintf(err, cap, "no built-in template %s", name);
    return NULL;
}
