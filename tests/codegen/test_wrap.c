/* Unit tests of codegen's line wrapper (wrap.c): each statement, too long
 * for one line, comes out as clang-format 14 writes it with the
 * repository's .clang-format (the expected texts are its output): a call
 * nested in the first argument broken inside, after its bracket or after
 * the '='; an argument after a broken one on a line of its own; braced
 * lists broken under a call broken after its bracket; a path broken
 * between ROOT and its string. */
#include "emit.h"
#include "rk_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

RK_TEST(codegen_wrap, nested_calls_break_as_clang_format_does)
{
    static const struct {
        const char *line, *wrapped;
    } cases[] = {
        {"    int fd_2 = creat(P(ROOT \"/unique/test.%d/mdtest_tree.0/mdtest_tree.%d/file.mdtest.%d.%d\", "
         "rank, i + 1, rank, i + 1), 0644);",
         "    int fd_2 = creat(\n"
         "        P(ROOT \"/unique/test.%d/mdtest_tree.0/mdtest_tree.%d/file.mdtest.%d.%d\", rank, i + 1, "
         "rank, i + 1),\n"
         "        0644);"},
        {"    int fd_2 = creat(P(ROOT "
         "\"/unique/test.%d/mdtest_tree.0/mdtest_tree.%d/mdtest_tree.%d/file.mdtest.%d.%d\", rank, i + 1, 2 "
         "* i + j + 3, rank, 2 * i + j + 3), 0644);",
         "    int fd_2 = creat(P(ROOT "
         "\"/unique/test.%d/mdtest_tree.0/mdtest_tree.%d/mdtest_tree.%d/file.mdtest.%d.%d\",\n"
         "                       rank, i + 1, 2 * i + j + 3, rank, 2 * i + j + 3),\n"
         "                     0644);"},
        {"    MPI_Type_create_hindexed(7, (int[]){272, array_of_blocklengths_by_rank[rank], 272, 544 - 272 * "
         "(rank % 2), 152 * (rank % 2) + 120, 272, 328 - 56 * (rank % 2)}, (MPI_Aint[]){0, "
         "array_of_displacements_by_rank[rank], array_of_displacements_by_rank_2[rank], "
         "array_of_displacements_by_rank_3[rank], array_of_displacements_by_rank_4[rank], "
         "array_of_displacements_by_rank_5[rank], array_of_displacements_by_rank_6[rank]}, MPI_BYTE, "
         "&dtype);",
         "    MPI_Type_create_hindexed(\n"
         "        7,\n"
         "        (int[]){272, array_of_blocklengths_by_rank[rank], 272, 544 - 272 * (rank % 2), 152 * (rank "
         "% 2) + 120,\n"
         "                272, 328 - 56 * (rank % 2)},\n"
         "        (MPI_Aint[]){0, array_of_displacements_by_rank[rank], "
         "array_of_displacements_by_rank_2[rank],\n"
         "                     array_of_displacements_by_rank_3[rank], "
         "array_of_displacements_by_rank_4[rank],\n"
         "                     array_of_displacements_by_rank_5[rank], "
         "array_of_displacements_by_rank_6[rank]},\n"
         "        MPI_BYTE, &dtype);"},
        {"    fd = open(P(ROOT "
         "\"/n-to-m.np4/out/group.%d/abcdefghij/abcdefghij/abcdefghij/abcdefghij/abcdefghij/\", rank / 2), "
         "O_WRONLY | O_CREAT | O_TRUNC, 0644);",
         "    fd = open(\n"
         "        P(ROOT "
         "\"/n-to-m.np4/out/group.%d/abcdefghij/abcdefghij/abcdefghij/abcdefghij/abcdefghij/\", rank / 2),\n"
         "        O_WRONLY | O_CREAT | O_TRUNC, 0644);"},
        {"    DIR *dir_2 = opendir(P(ROOT "
         "\"/unique/test.%d/mdtest_tree.0/mdtest_tree.%d/abcdefghij/abcdefghij/abcdefghij/a\", rank, i + "
         "1));",
         "    DIR *dir_2 = opendir(P(\n"
         "        ROOT \"/unique/test.%d/mdtest_tree.0/mdtest_tree.%d/abcdefghij/abcdefghij/abcdefghij/a\", "
         "rank, i + 1));"},
        {"            fd = open(P(ROOT "
         "\"/n-to-m.np4/out/group.%d/abcdefghij/abcdefghij/abcdefghij/abcdefghij/abcdefghij/\", rank / 2), "
         "O_WRONLY | O_CREAT | O_TRUNC, 0644);",
         "            fd = open(P(ROOT\n"
         "                        "
         "\"/n-to-m.np4/out/group.%d/abcdefghij/abcdefghij/abcdefghij/abcdefghij/abcdefghij/\",\n"
         "                        rank / 2),\n"
         "                      O_WRONLY | O_CREAT | O_TRUNC, 0644);"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        char *w = cg_wrap_lines(cases[k].line, 110);
        if (strcmp(w, cases[k].wrapped))
            fprintf(stderr, "case %zu:\n%s\nexpected:\n%s\n", k, w, cases[k].wrapped);
        CU_ASSERT_STRING_EQUAL(w, cases[k].wrapped);
        free(w);
    }
}

RK_TEST(codegen_wrap, short_lines_and_other_text_stay)
{
    const char *text =
        "    close(fd);\n/* a comment (with brackets) that is longer than the column limit of one "
        "hundred and ten columns */\n";
    char *w = cg_wrap_lines(text, 110);
    CU_ASSERT_STRING_EQUAL(w, text);
    free(w);
}

RK_TEST(codegen_wrap, a_table_entry_too_long_splits_its_literal_as_clang_format_does)
{
    /* clang-format 14's split of the entry an elastic kernel wrote under a long directory */
    const char *line = "    \"/tmp/ci-3d5eca7caff1ceefc8e05ecf26f6e6c285f381dc/run_2026_12_04-7654321/t2/recorder-kit/"
                       "build/codegen-runs\",\n";
    char *w = cg_wrap_lines(line, 110);
    CU_ASSERT_STRING_EQUAL(w, "    \"/tmp/ci-3d5eca7caff1ceefc8e05ecf26f6e6c285f381dc/run_2026_12_04-7654321/t2/recorder-kit/"
                              "build/\"\n    \"codegen-runs\",\n");
    free(w);
    /* a blank that fits comes before any '/' */
    char *b = cg_wrap_lines("  \"aaaa/bbbb cc/dddddd\";\n", 20);
    CU_ASSERT_STRING_EQUAL(b, "  \"aaaa/bbbb \"\n  \"cc/dddddd\";\n");
    free(b);
}
