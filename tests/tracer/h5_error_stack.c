/* h5_error_stack.c RESULTS DIR: HDF5 calls that fail, each followed by what
 * the application can learn of the failure: the return value, the number of
 * errors on the default stack and the stack as H5Eprint2 prints it. The
 * tracer's own HDF5 calls after a failed call (bytes, selections, ids) must
 * leave that stack as the failed call left it, and after variable-length
 * strings written, the lengths the tracer walks for leave it empty: the
 * results are compared with an untraced run's, line for line. */
#include <hdf5.h>
#include <stdio.h>
#include <stdlib.h>

static FILE *results;

static void report(const char *what, long long rc)
{
    fprintf(results, "%s: %lld, %zd on the stack\n", what, rc, H5Eget_num(H5E_DEFAULT));
    FILE *stack = tmpfile();
    if (!stack)
        exit(2);
    H5Eprint2(H5E_DEFAULT, stack);
    rewind(stack);
    char line[1024];
    while (fgets(line, sizeof line, stack))
        fprintf(results, "  %s", line);
    fclose(stack);
}

int main(int argc, char **argv)
{
    if (argc != 3 || !(results = fopen(argv[1], "w"))) {
        fprintf(stderr, "usage: h5_error_stack RESULTS DIR\n");
        return 2;
    }
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    char path[4096];
    snprintf(path, sizeof path, "%s/f.h5", argv[2]);
    hid_t file = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    hsize_t dims[2] = {4, 6};
    hid_t space = H5Screate_simple(2, dims, NULL);
    hid_t dset = H5Dcreate2(file, "d", H5T_NATIVE_INT, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    int buf[24] = {0};
    report("H5Dwrite, a file space that is no id", H5Dwrite(dset, H5T_NATIVE_INT, H5S_ALL, (hid_t)123456, H5P_DEFAULT, buf));
    hsize_t start[2] = {0, 0}, count[2] = {1, 1};
    report("H5Sselect_hyperslab on no space", H5Sselect_hyperslab((hid_t)123456, H5S_SELECT_SET, start, NULL, count, NULL));
    report("H5Dopen2 of a missing dataset", H5Dopen2(file, "missing", H5P_DEFAULT));
    report("H5Aopen of a missing attribute", H5Aopen(dset, "missing", H5P_DEFAULT));
    report("H5Dread into a type that is no id", H5Dread(dset, (hid_t)123456, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf));
    snprintf(path, sizeof path, "%s/missing.h5", argv[2]);
    report("H5Fopen of a missing file", H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT));
    report("H5Dwrite that succeeds", H5Dwrite(dset, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf));
    /* variable-length strings, whose lengths the tracer walks the buffer for after a write that succeeded */
    hid_t vstr = H5Tcopy(H5T_C_S1);
    H5Tset_size(vstr, H5T_VARIABLE);
    hsize_t three = 3;
    hid_t line = H5Screate_simple(1, &three, NULL);
    hid_t words = H5Dcreate2(file, "words", vstr, line, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    const char *text[3] = {"one", "", "three"};
    report("H5Dwrite of strings, a memory space that is no id",
           H5Dwrite(words, vstr, (hid_t)123456, H5S_ALL, H5P_DEFAULT, text));
    report("H5Dwrite of strings, no buffer", H5Dwrite(words, vstr, H5S_ALL, H5S_ALL, H5P_DEFAULT, NULL));
    report("H5Dwrite of strings that succeeds", H5Dwrite(words, vstr, H5S_ALL, H5S_ALL, H5P_DEFAULT, text));
    H5Dclose(words);
    H5Sclose(line);
    H5Tclose(vstr);
    H5Dclose(dset);
    H5Sclose(space);
    H5Fclose(file);
    fclose(results);
    return 0;
}
