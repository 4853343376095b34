/* diff_rules.h: the few fields recorder-diff does not compare by their kind
 * alone, keyed by function and field name ("return" is the return value).
 * Everything else follows from the function table. */
#ifndef RECORDER_DIFF_RULES_H
#define RECORDER_DIFF_RULES_H

typedef enum diff_rule {
    DIFF_RULE_KIND = 0,    /* compared by its kind (the default) */
    DIFF_RULE_IGNORE,      /* not compared */
    DIFF_RULE_DIR_ENTRY,   /* a directory entry: compared as a multiset per DIR stream */
    DIFF_RULE_LINK_TARGET, /* a symlink's target: re-rooted when absolute, as written or re-rooted when relative */
    DIFF_RULE_FILE_NAME,   /* a string holding a file's name: compared after the path mapping */
    DIFF_RULE_NAME_LENGTH  /* the length of such a name: under a mapping only success is compared */
} diff_rule;

typedef struct diff_rule_entry {
    const char *func, *field;
    diff_rule rule;
} diff_rule_entry;

static const diff_rule_entry diff_rules[] = {
    /* The order of entries is the file system's (hash order on ext4), not the
     * application's: two runs list the same names in different orders. */
    {"readdir", "return", DIFF_RULE_DIR_ENTRY},
    {"readdir64", "return", DIFF_RULE_DIR_ENTRY},
    /* The process's working directory: a replay or a kernel runs elsewhere. */
    {"getcwd", "return", DIFF_RULE_IGNORE},
    /* A relative target resolves from the link's directory, so it needs no
     * re-rooting, while an absolute one must move with the tree. */
    {"symlink", "target", DIFF_RULE_LINK_TARGET},
    {"symlinkat", "target", DIFF_RULE_LINK_TARGET},
    {"readlink", "buf", DIFF_RULE_LINK_TARGET},
    {"readlinkat", "buf", DIFF_RULE_LINK_TARGET},
    {"readlink", "return", DIFF_RULE_NAME_LENGTH},
    {"readlinkat", "return", DIFF_RULE_NAME_LENGTH},
    /* HDF5 reports the file's name as it was opened: re-rooted in B. */
    {"H5Fget_name", "name", DIFF_RULE_FILE_NAME},
    {"H5Fget_name", "return", DIFF_RULE_NAME_LENGTH},
};

#endif
