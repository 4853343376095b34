/* rebuilt_types: MPI datatypes made out of the tracer's sight (PMPI_*) that
 * the tracer must rebuild without tripping MPI's fatal errors: one with
 * large counts (the classic MPI_Type_get_envelope refuses it) and ones
 * whose member is a predefined type the table does not name, or a Fortran
 * 90 type (freeing either is an error). Each is used by a traced call. */
#include <mpi.h>
#include <stdio.h>

/* Kept until the end: a handle freed out of the tracer's sight may come
 * back as the next type's, which the tracer would take for the old one. */
static void use(MPI_Datatype t)
{
    char buf[256] = {0};
    PMPI_Type_commit(&t);
    MPI_Bcast(buf, 1, t, 0, MPI_COMM_SELF);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Datatype t[3], f90;
    PMPI_Type_contiguous(3, MPI_INTEGER8, &t[0]);
    PMPI_Type_create_f90_integer(9, &f90);
    PMPI_Type_contiguous(2, f90, &t[1]);
#if MPI_VERSION >= 4
    PMPI_Type_contiguous_c(7, MPI_INT, &t[2]);
#else
    PMPI_Type_contiguous(7, MPI_INT, &t[2]);
#endif
    for (int i = 0; i < 3; i++)
        use(t[i]);
    for (int i = 0; i < 3; i++)
        PMPI_Type_free(&t[i]);
    printf("3 types used\n");
    /* A type MPI_Type_get_contents hands back, which the program frees (PnetCDF's
     * vard calls do): made out of sight, gone once freed, so never rebuilt. */
    MPI_Datatype vec, outer, got[1];
    int ints[1];
    MPI_Aint addrs[1];
    PMPI_Type_vector(2, 1, 4, MPI_INT, &vec);
    PMPI_Type_contiguous(3, vec, &outer);
    PMPI_Type_get_contents(outer, 1, 0, 1, ints, addrs, got);
    MPI_Type_free(&got[0]);
    PMPI_Type_free(&outer);
    PMPI_Type_free(&vec);
    printf("a type handed back by MPI_Type_get_contents freed (count %d)\n", ints[0]);
    MPI_Finalize();
    return 0;
}
