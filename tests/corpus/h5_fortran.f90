! h5_fortran: a Fortran code writing its 2-D field with parallel HDF5, as the
! HDF5 Fortran parallel examples (ph5_f90_hyperslab_by_row) and the Fortran
! simulation codes built on them do: h5open_f; a file access list with
! h5pset_fapl_mpio_f on MPI_COMM_WORLD; h5fcreate_f; one 2-D integer dataset
! (H5T_NATIVE_INTEGER, the Fortran library's own predefined type); each rank
! selects its block of columns with h5sselect_hyperslab_f and writes it
! collectively (h5pset_dxpl_mpio_f with H5FD_MPIO_COLLECTIVE_F); the file is
! closed, reopened read-only and each block read back collectively and
! checked; h5close_f.
!   mpiexec -np N h5_fortran OUTDIR      writes OUTDIR/field.h5
! Rank 0 creates OUTDIR (mkdir through ISO_C_BINDING).
program h5_fortran
  use hdf5
  use mpi
  use, intrinsic :: iso_c_binding
  implicit none
  interface
    function c_mkdir(path, mode) bind(C, name="mkdir") result(rc)
      import :: c_char, c_int
      character(kind=c_char), dimension(*), intent(in) :: path
      integer(c_int), value :: mode
      integer(c_int) :: rc
    end function c_mkdir
  end interface
  integer, parameter :: nx = 16, ny = 6 ! each rank's block: nx x ny, columns rank*ny+1..(rank+1)*ny
  integer :: rank, nprocs, ierr, error, length, i, j
  integer(c_int) :: rc
  integer(hid_t) :: fapl, file_id, dset_id, filespace, memspace, dxpl
  integer(hsize_t) :: dims(2), block(2), offset(2)
  integer :: field(nx, ny), back(nx, ny)
  character(len=4096) :: outdir, path

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  if (command_argument_count() /= 1) then
    if (rank == 0) write (0, '(a)') 'usage: h5_fortran OUTDIR'
    call MPI_Finalize(ierr)
    stop 2
  end if
  call get_command_argument(1, outdir, length)
  if (rank == 0) then
    ! an existing OUTDIR is fine; any other failure shows at h5fcreate_f, naming the path
    rc = c_mkdir(trim(outdir)//c_null_char, int(o'755', c_int))
  end if
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  path = trim(outdir)//'/field.h5'

  call h5open_f(error)
  call check(error, 'h5open_f')
  dims = (/int(nx, hsize_t), int(ny*nprocs, hsize_t)/)
  block = (/int(nx, hsize_t), int(ny, hsize_t)/)
  offset = (/0_hsize_t, int(rank*ny, hsize_t)/)
  do j = 1, ny
    do i = 1, nx
      field(i, j) = i*1000 + rank*ny + j
    end do
  end do
  call h5pcreate_f(H5P_DATASET_XFER_F, dxpl, error)
  call check(error, 'h5pcreate_f')
  call h5pset_dxpl_mpio_f(dxpl, H5FD_MPIO_COLLECTIVE_F, error)
  call check(error, 'h5pset_dxpl_mpio_f')

  ! Write.
  call h5pcreate_f(H5P_FILE_ACCESS_F, fapl, error)
  call check(error, 'h5pcreate_f')
  call h5pset_fapl_mpio_f(fapl, MPI_COMM_WORLD, MPI_INFO_NULL, error)
  call check(error, 'h5pset_fapl_mpio_f')
  call h5fcreate_f(trim(path), H5F_ACC_TRUNC_F, file_id, error, access_prp=fapl)
  call check(error, 'h5fcreate_f')
  call h5screate_simple_f(2, dims, filespace, error)
  call check(error, 'h5screate_simple_f')
  call h5dcreate_f(file_id, 'field', H5T_NATIVE_INTEGER, filespace, dset_id, error)
  call check(error, 'h5dcreate_f')
  call h5sselect_hyperslab_f(filespace, H5S_SELECT_SET_F, offset, block, error)
  call check(error, 'h5sselect_hyperslab_f')
  call h5screate_simple_f(2, block, memspace, error)
  call check(error, 'h5screate_simple_f')
  call h5dwrite_f(dset_id, H5T_NATIVE_INTEGER, field, block, error, &
                  mem_space_id=memspace, file_space_id=filespace, xfer_prp=dxpl)
  call check(error, 'h5dwrite_f')
  call h5sclose_f(memspace, error)
  call h5sclose_f(filespace, error)
  call h5dclose_f(dset_id, error)
  call h5fclose_f(file_id, error)
  call check(error, 'h5fclose_f')

  ! Read back.
  call h5fopen_f(trim(path), H5F_ACC_RDONLY_F, file_id, error, access_prp=fapl)
  call check(error, 'h5fopen_f')
  call h5dopen_f(file_id, 'field', dset_id, error)
  call check(error, 'h5dopen_f')
  call h5dget_space_f(dset_id, filespace, error)
  call check(error, 'h5dget_space_f')
  call h5sselect_hyperslab_f(filespace, H5S_SELECT_SET_F, offset, block, error)
  call check(error, 'h5sselect_hyperslab_f')
  call h5screate_simple_f(2, block, memspace, error)
  call check(error, 'h5screate_simple_f')
  back = 0
  call h5dread_f(dset_id, H5T_NATIVE_INTEGER, back, block, error, &
                 mem_space_id=memspace, file_space_id=filespace, xfer_prp=dxpl)
  call check(error, 'h5dread_f')
  do j = 1, ny
    do i = 1, nx
      if (back(i, j) /= field(i, j)) then
        write (0, '(a,i0,a,i0,a,i0)') 'h5_fortran: rank ', rank, ': '//trim(path)//': field(', i, ',', &
          rank*ny + j
        call MPI_Abort(MPI_COMM_WORLD, 1, ierr)
      end if
    end do
  end do
  call h5sclose_f(memspace, error)
  call h5sclose_f(filespace, error)
  call h5dclose_f(dset_id, error)
  call h5fclose_f(file_id, error)
  call check(error, 'h5fclose_f')
  call h5pclose_f(fapl, error)
  call h5pclose_f(dxpl, error)
  call h5close_f(error)
  call check(error, 'h5close_f')
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  if (rank == 0) write (*, '(a,i0,a)') 'h5_fortran: OK: ', nprocs, ' ranks'
  call MPI_Finalize(ierr)

contains

  subroutine check(err, call_name)
    integer, intent(in) :: err
    character(len=*), intent(in) :: call_name
    integer :: e
    if (err < 0) then
      write (0, '(a,i0,a)') 'h5_fortran: rank ', rank, ': '//call_name//' failed on '//trim(path)
      call MPI_Abort(MPI_COMM_WORLD, 1, e)
    end if
  end subroutine check
end program h5_fortran
