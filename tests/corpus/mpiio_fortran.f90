! mpiio_fortran: the MPI-IO of a Fortran simulation that keeps a 2-D field
! block-distributed along its first dimension and appends it to one shared
! file every time step (the pattern of Fortran climate and CFD codes):
! MPI_File_open on MPI_COMM_WORLD, a view whose filetype is the rank's block
! of the global array (MPI_Type_create_subarray, MPI_ORDER_FORTRAN), one
! MPI_File_write_at_all per step (offsets in etypes, the view tiles the
! file), MPI_File_read_at_all of every step to check it, MPI_File_close.
!   mpiexec -np N mpiio_fortran OUTDIR      writes OUTDIR/field.dat
! Rank 0 creates OUTDIR (mkdir through ISO_C_BINDING, as such codes do).
program mpiio_fortran
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
  integer, parameter :: nx = 16, ny = 12, steps = 2
  integer :: rank, nprocs, ierr, step, i, j, filetype, fh, length
  integer(c_int) :: rc
  integer :: gsizes(2), lsizes(2), starts(2)
  integer(kind=MPI_OFFSET_KIND) :: disp, offset
  integer :: status(MPI_STATUS_SIZE)
  double precision :: field(nx, ny), back(nx, ny)
  character(len=4096) :: outdir, path

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  if (command_argument_count() /= 1) then
    if (rank == 0) write (0, '(a)') 'usage: mpiio_fortran OUTDIR'
    call MPI_Finalize(ierr)
    stop 2
  end if
  call get_command_argument(1, outdir, length)
  if (rank == 0) then
    ! an existing OUTDIR is fine; any other failure shows at MPI_File_open, naming the path
    rc = c_mkdir(trim(outdir)//c_null_char, int(o'755', c_int))
  end if
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  path = trim(outdir)//'/field.dat'

  call MPI_File_open(MPI_COMM_WORLD, trim(path), MPI_MODE_CREATE + MPI_MODE_RDWR, MPI_INFO_NULL, fh, ierr)
  call check(ierr, 'MPI_File_open')
  gsizes = (/nx*nprocs, ny/)
  lsizes = (/nx, ny/)
  starts = (/nx*rank, 0/)
  call MPI_Type_create_subarray(2, gsizes, lsizes, starts, MPI_ORDER_FORTRAN, MPI_DOUBLE_PRECISION, &
                                filetype, ierr)
  call MPI_Type_commit(filetype, ierr)
  disp = 0
  call MPI_File_set_view(fh, disp, MPI_DOUBLE_PRECISION, filetype, 'native', MPI_INFO_NULL, ierr)
  call check(ierr, 'MPI_File_set_view')

  do step = 1, steps
    call fill(field, step)
    offset = int(step - 1, MPI_OFFSET_KIND)*nx*ny
    call MPI_File_write_at_all(fh, offset, field, nx*ny, MPI_DOUBLE_PRECISION, status, ierr)
    call check(ierr, 'MPI_File_write_at_all')
  end do
  do step = 1, steps
    back = 0
    offset = int(step - 1, MPI_OFFSET_KIND)*nx*ny
    call MPI_File_read_at_all(fh, offset, back, nx*ny, MPI_DOUBLE_PRECISION, status, ierr)
    call check(ierr, 'MPI_File_read_at_all')
    call fill(field, step)
    do j = 1, ny
      do i = 1, nx
        if (abs(back(i, j) - field(i, j)) > 0.5d0) then ! the values are whole numbers
          write (0, '(a,i0,a,i0,a,i0,a,i0)') 'mpiio_fortran: rank ', rank, ': '//trim(path)// &
            ': step ', step, ' element ', i, ',', j
          call MPI_Abort(MPI_COMM_WORLD, 1, ierr)
        end if
      end do
    end do
  end do
  call MPI_File_close(fh, ierr)
  call check(ierr, 'MPI_File_close')
  call MPI_Type_free(filetype, ierr)
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  if (rank == 0) write (*, '(a,i0,a)') 'mpiio_fortran: OK: ', nprocs, ' ranks'
  call MPI_Finalize(ierr)

contains

  subroutine fill(a, step)
    double precision, intent(out) :: a(nx, ny)
    integer, intent(in) :: step
    integer :: ii, jj
    do jj = 1, ny
      do ii = 1, nx
        a(ii, jj) = step*1000000 + (nx*rank + ii)*100 + jj
      end do
    end do
  end subroutine fill

  subroutine check(err, call_name)
    integer, intent(in) :: err
    character(len=*), intent(in) :: call_name
    character(len=MPI_MAX_ERROR_STRING) :: text
    integer :: text_len, e
    if (err /= MPI_SUCCESS) then
      call MPI_Error_string(err, text, text_len, e)
      write (0, '(a,i0,a)') 'mpiio_fortran: rank ', rank, ': '//call_name//' failed on '//trim(path)// &
        ': '//text(1:text_len)
      call MPI_Abort(MPI_COMM_WORLD, 1, e)
    end if
  end subroutine check
end program mpiio_fortran
