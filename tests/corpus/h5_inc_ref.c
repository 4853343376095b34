/* h5_inc_ref: HDF5 handles kept alive across their close with H5Iinc_ref,
 * the way netCDF-4 keeps a variable's dataset and its group open.
 *   h5_inc_ref OUTDIR
 * Every rank writes OUTDIR/vars.<rank>.h5 (a group /vars with a ROWS x COLS
 * double dataset /vars/t), closes it, opens it again, opens the group and
 * the dataset, takes a second reference to each (H5Iinc_ref: 2), closes
 * them (H5Oclose, H5Gclose: the ids stay valid), reads the dataset row by
 * row through the kept id and checks every value, asks the group's info, the
 * dataset's file (H5Iget_file_id: the file's own id, a second reference,
 * closed), and drops the kept references (H5Idec_ref: 0). */
#include "corpus_h5.h"

enum { ROWS = 16, COLS = 32 };

static double value(int rank, int i, int j)
{
    return rank * 100000.0 + i * 100 + j;
}

static void write_file(const char *path)
{
    static double data[ROWS][COLS];
    for (int i = 0; i < ROWS; i++)
        for (int j = 0; j < COLS; j++)
            data[i][j] = value(corpus_rank, i, j);
    hsize_t dims[2] = {ROWS, COLS};
    hid_t file = H5OK(H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT));
    hid_t group = H5OK(H5Gcreate2(file, "vars", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
    hid_t space = H5OK(H5Screate_simple(2, dims, NULL));
    hid_t dset = H5OK(H5Dcreate2(group, "t", H5T_NATIVE_DOUBLE, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
    H5OK(H5Dwrite(dset, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, data));
    H5OK(H5Dclose(dset));
    H5OK(H5Sclose(space));
    H5OK(H5Gclose(group));
    H5OK(H5Fclose(file));
}

static void expect_count(int got, int want, const char *what)
{
    if (got != want)
        corpus_fail("%s: reference count %d, not %d", what, got, want);
}

int main(int argc, char **argv)
{
    corpus_init(&argc, &argv, "h5_inc_ref");
    char path[CORPUS_PATH_MAX];
    corpus_path(path, "vars.%d.h5", corpus_rank);
    write_file(path);

    hid_t file = H5OK(H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT));
    hid_t group = H5OK(H5Gopen2(file, "vars", H5P_DEFAULT));
    hid_t dset = H5OK(H5Dopen2(group, "t", H5P_DEFAULT));
    expect_count(H5OK(H5Iinc_ref(dset)), 2, "H5Iinc_ref of /vars/t");
    expect_count(H5OK(H5Iinc_ref(group)), 2, "H5Iinc_ref of /vars");
    H5OK(H5Oclose(dset)); /* the kept reference lives on */
    H5OK(H5Gclose(group));

    hsize_t row_dims[1] = {COLS};
    hid_t row_space = H5OK(H5Screate_simple(1, row_dims, NULL));
    for (int i = 0; i < ROWS; i++) {
        double row[COLS];
        hsize_t start[2] = {(hsize_t)i, 0}, count[2] = {1, COLS};
        hid_t file_space = H5OK(H5Dget_space(dset));
        H5OK(H5Sselect_hyperslab(file_space, H5S_SELECT_SET, start, NULL, count, NULL));
        H5OK(H5Dread(dset, H5T_NATIVE_DOUBLE, row_space, file_space, H5P_DEFAULT, row));
        H5OK(H5Sclose(file_space));
        for (int j = 0; j < COLS; j++)
            if (row[j] != value(corpus_rank, i, j))
                corpus_fail("%s: /vars/t[%d][%d] is %g, not %g", path, i, j, row[j], value(corpus_rank, i, j));
    }
    H5OK(H5Sclose(row_space));
    H5G_info_t info;
    H5OK(H5Gget_info(group, &info));
    if (info.nlinks != 1)
        corpus_fail("%s: /vars has %llu links, not 1", path, (unsigned long long)info.nlinks);
    hid_t same_file = H5OK(H5Iget_file_id(dset));
    H5OK(H5Fclose(same_file));
    expect_count(H5Idec_ref(dset), 0, "H5Idec_ref of /vars/t");
    expect_count(H5Idec_ref(group), 0, "H5Idec_ref of /vars");
    H5OK(H5Fclose(file));
    return corpus_finish();
}
