/* Units of the replayer's handle map (replayer/handles.c): a second create of
 * a live id in a reference-counted space is one more reference, whatever
 * handle the MPI made for it (MPICH: the same, another MPI: another); the
 * destroying call frees the latest reference's handle, calls use the
 * first's, and the id is forgotten when every reference is dropped. */
#include <string.h>

#include "replay.h"
#include "rk_test.h"

enum { GROUP = 64, FD = 64 };

/* The replayer's generated dispatch defines it; the map asks for it only
 * for an MPI_Op made out of the tracer's sight, which no unit here uses. */
uint64_t rp_untraced_op_raw(void)
{
    return 0;
}

static uint64_t handle_of(rp_ctx *x, unsigned kind, int64_t id, int latest)
{
    uint64_t raw = 0;
    int rc = latest ? rp_handle_latest(x, kind, id, &raw) : rp_handle_in(x, kind, id, &raw);
    return rc == 0 ? raw : 0;
}

RK_TEST(replay_handles, a_second_create_of_a_live_id_is_one_more_reference)
{
    static rp_ctx x;
    rp_handles_init();
    /* the same handle twice (MPICH's MPI_Comm_group) */
    rp_handle_new(&x, REC_KIND_MPI_GROUP, GROUP, 0x88000001, NULL);
    rp_handle_new(&x, REC_KIND_MPI_GROUP, GROUP, 0x88000001, NULL);
    CU_ASSERT_EQUAL(handle_of(&x, REC_KIND_MPI_GROUP, GROUP, 1), 0x88000001);
    rp_handle_drop(&x, REC_KIND_MPI_GROUP, GROUP);
    CU_ASSERT_EQUAL(handle_of(&x, REC_KIND_MPI_GROUP, GROUP, 0), 0x88000001); /* still live */
    rp_handle_drop(&x, REC_KIND_MPI_GROUP, GROUP);
    CU_ASSERT_EQUAL(handle_of(&x, REC_KIND_MPI_GROUP, GROUP, 0), 0);
    CU_ASSERT_PTR_NOT_NULL(x.reason); /* its creating call was not replayed: now nothing */
}

RK_TEST(replay_handles, another_handle_for_the_same_id_is_freed_first)
{
    static rp_ctx x;
    rp_handles_init();
    rp_handle_new(&x, REC_KIND_MPI_GROUP, GROUP + 1, 0x1000, NULL);
    rp_handle_new(&x, REC_KIND_MPI_GROUP, GROUP + 1, 0x2000, NULL);
    CU_ASSERT_EQUAL(handle_of(&x, REC_KIND_MPI_GROUP, GROUP + 1, 0), 0x1000); /* uses: the first */
    CU_ASSERT_EQUAL(handle_of(&x, REC_KIND_MPI_GROUP, GROUP + 1, 1), 0x2000); /* the free: the latest */
    rp_handle_drop(&x, REC_KIND_MPI_GROUP, GROUP + 1);
    CU_ASSERT_EQUAL(handle_of(&x, REC_KIND_MPI_GROUP, GROUP + 1, 1), 0x1000);
    rp_handle_drop(&x, REC_KIND_MPI_GROUP, GROUP + 1);
    CU_ASSERT_EQUAL(handle_of(&x, REC_KIND_MPI_GROUP, GROUP + 1, 0), 0);
}

RK_TEST(replay_handles, inc_ref_keeps_an_hdf5_id_across_its_close)
{
    static rp_ctx x;
    rp_handles_init();
    enum { DSET = 70 };
    rp_handle_new(&x, REC_KIND_H5_DATASET, DSET, 0x0500000000000001ull, NULL);
    rp_handle_retain(&x, REC_KIND_H5_LOC, DSET); /* H5Iinc_ref: one space for every HDF5 id */
    rp_handle_drop(&x, REC_KIND_H5_LOC, DSET);   /* H5Oclose */
    CU_ASSERT_EQUAL(handle_of(&x, REC_KIND_H5_DATASET, DSET, 0), 0x0500000000000001ull);
    rp_handle_drop(&x, REC_KIND_H5_LOC, DSET); /* H5Idec_ref to 0 */
    CU_ASSERT_EQUAL(handle_of(&x, REC_KIND_H5_DATASET, DSET, 0), (uint64_t)RP_STALE_HID(DSET));
}

RK_TEST(replay_handles, an_fd_made_again_is_a_new_object)
{
    static rp_ctx x;
    rp_handles_init();
    rp_handle_new(&x, REC_KIND_FD, FD, 5, NULL);
    rp_handle_new(&x, REC_KIND_FD, FD, 6, NULL); /* fds are not reference counted */
    CU_ASSERT_EQUAL(handle_of(&x, REC_KIND_FD, FD, 0), 6);
    rp_handle_drop(&x, REC_KIND_FD, FD);
    CU_ASSERT_EQUAL(handle_of(&x, REC_KIND_FD, FD, 0), 0);
}

/* An error handler: a get of a live one is one more reference, freed by
 * the application's free; one no replayed call made (the program made it
 * before tracing) is MPI_ERRORS_RETURN, as the stand-ins for its own return. */
RK_TEST(replay_handles, an_error_handler_got_is_a_reference_and_one_unmade_returns)
{
    static rp_ctx x;
    rp_handles_init();
    enum { MADE = 64, UNMADE = 65 };
    rp_handle_new(&x, REC_KIND_MPI_ERRHANDLER, MADE, 0x94000000, NULL); /* MPI_Comm_create_errhandler */
    rp_handle_new(&x, REC_KIND_MPI_ERRHANDLER, MADE, 0x94000000, NULL); /* MPI_Comm_get_errhandler */
    rp_handle_drop(&x, REC_KIND_MPI_ERRHANDLER, MADE);
    CU_ASSERT_EQUAL(handle_of(&x, REC_KIND_MPI_ERRHANDLER, MADE, 0), 0x94000000); /* still live */
    rp_handle_drop(&x, REC_KIND_MPI_ERRHANDLER, MADE);
    CU_ASSERT_EQUAL(handle_of(&x, REC_KIND_MPI_ERRHANDLER, UNMADE, 0),
                    (uint64_t)(uintptr_t)MPI_ERRORS_RETURN);
    CU_ASSERT_EQUAL(handle_of(&x, REC_KIND_MPI_ERRHANDLER, 2, 0), (uint64_t)(uintptr_t)MPI_ERRORS_RETURN);
    CU_ASSERT_EQUAL(handle_of(&x, REC_KIND_MPI_ERRHANDLER, 1, 0), (uint64_t)(uintptr_t)MPI_ERRORS_ARE_FATAL);
}
