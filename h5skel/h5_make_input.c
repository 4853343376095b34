/* An object of an HDF5 input file as the traced run found it. Made in the table's order (their addresses in
 * the file), objects get their addresses back where HDF5 allows. type, space and plist are HDF5's own
 * encodings (H5Tencode, H5Sencode, H5Pencode), in hex; the file's row holds its creation properties and
 * superblock version, an attribute's its value, by meaning (h5_value() of templates/h5value.c.tmpl comes
 * first); attributes holding object references are made last, once every object they may name is. A
 * filtered dataset's recorded chunks are written with data its filters store in their recorded sizes, where
 * the filtered-data generator (templates/h5fill.c.tmpl, H5FILL_GENERATOR) comes first. */
struct h5_object {
    char kind; /* 'f' file, 'g' group, 't' named type, 'd' dataset, 'w' a dataset's data written later than it
                * was made, 'a' attribute, 'l'/'s' link */
    const char *name;  /* its path in the file; an attribute's object */
    const char *other; /* an attribute's name; a link's target; the named datatype of a dataset */
    const char *type, *space, *plist, *value;
    const char *chunks;   /* a filtered dataset's chunks as stored: "rank c,..,size c,..,size", else "" */
    long long link_order; /* its link's creation order + 1 in a group that tracks the order (netCDF-4 numbers
                           * a group's variables by it); 0: untracked, or no link of its own */
};

/* Bytes from hex (malloc'ed). */
static unsigned char *h5_unhex(const char *hex)
{
    size_t n = strlen(hex) / 2;
    unsigned char *b = malloc(n + 1);
    for (size_t i = 0; b && i < n; i++) {
        int hi = hex[2 * i] <= '9' ? hex[2 * i] - '0' : hex[2 * i] - 'a' + 10;
        int lo = hex[2 * i + 1] <= '9' ? hex[2 * i + 1] - '0' : hex[2 * i + 1] - 'a' + 10;
        b[i] = (unsigned char)(hi << 4 | lo);
    }
    return b;
}

/* An HDF5 type, dataspace or property list from its encoding in hex; none for "". */
static hid_t h5_decode(hid_t (*decode)(const void *), const char *hex)
{
    if (!hex[0])
        return H5I_INVALID_HID;
    unsigned char *bytes = h5_unhex(hex);
    hid_t id = bytes ? decode(bytes) : H5I_INVALID_HID;
    free(bytes);
    return id;
}

/* A dataset's data: the kernels' pattern. (For a filtered dataset, data whose filtered size matches the
 * traced one would come from here.) */
static void h5_input_data(hid_t dset, char *buf, size_t n)
{
    (void)dset;
    for (size_t b = 0; b < n; b++)
        buf[b] = (char)('a' + b % 26);
}

#ifdef H5FILL_GENERATOR
/* A chunked, filtered dataset's recorded chunks, each with data its filters store in the recorded size
 * (h5fill_chunk; the pattern where they cannot), the others left unallocated as they were: 0, or -1
 * when the dataset is not such a one (then it is written whole). */
static int h5_write_chunks(hid_t dset, hid_t type, const char *chunks)
{
    hid_t dcpl = H5Dget_create_plist(dset), space = H5Dget_space(dset), mem = H5I_INVALID_HID;
    hsize_t chunk[H5S_MAX_RANK], dims[H5S_MAX_RANK], zero[H5S_MAX_RANK] = {0};
    int rank = H5Sget_simple_extent_ndims(space), rc = -1;
    char *at;
    size_t size = H5Tget_size(type), elements = 1;
    if (chunks && chunks[0] && rank > 0 && rank <= H5S_MAX_RANK && strtol(chunks, &at, 10) == rank &&
        H5Pget_layout(dcpl) == H5D_CHUNKED && H5Pget_nfilters(dcpl) > 0 &&
        H5Pget_chunk(dcpl, rank, chunk) == rank && H5Sget_simple_extent_dims(space, dims, NULL) == rank) {
        for (int d = 0; d < rank; d++)
            elements *= chunk[d];
        char *buf = malloc(elements * size);
        mem = H5Screate_simple(rank, chunk, NULL);
        double hint = -1; /* the knob of the chunk before: neighbours' data are alike */
        rc = buf && mem >= 0 ? 0 : -1;
        while (rc == 0 && *at == ' ') {
            hsize_t start[H5S_MAX_RANK], count[H5S_MAX_RANK];
            for (int d = 0; d < rank; d++) { /* the part of the chunk inside the dataset */
                start[d] = strtoull(at + 1, &at, 10);
                hsize_t left = start[d] < dims[d] ? dims[d] - start[d] : 0;
                count[d] = left < chunk[d] ? left : chunk[d];
            }
            double stored = strtod(at + 1, &at);
            if (h5fill_chunk(dcpl, type, rank, chunk, stored, &hint, buf) < 0)
                for (size_t b = 0; b < elements * size; b++)
                    buf[b] = (char)('a' + b % 26);
            hid_t file = H5Scopy(space);
            H5Sselect_hyperslab(file, H5S_SELECT_SET, start, NULL, count, NULL);
            H5Sselect_hyperslab(mem, H5S_SELECT_SET, zero, NULL, count, NULL);
            rc = H5Dwrite(dset, type, mem, file, H5P_DEFAULT, buf) < 0 ? -2 : 0;
            H5Sclose(file);
        }
        free(buf);
    }
    if (mem >= 0)
        H5Sclose(mem);
    H5Sclose(space);
    H5Pclose(dcpl);
    return rc;
}
#endif

/* Writes the dataset whole, so that reads find allocated storage, in slabs of its first dimension. */
static herr_t h5_write_all(hid_t dset, hid_t type, const char *chunks)
{
#ifdef H5FILL_GENERATOR
    int by_chunks = h5_write_chunks(dset, type, chunks);
    if (by_chunks != -1)
        return by_chunks == 0 ? 0 : -1;
#else
    (void)chunks;
#endif
    hid_t space = H5Dget_space(dset);
    hsize_t dims[H5S_MAX_RANK], start[H5S_MAX_RANK] = {0};
    int rank = H5Sget_simple_extent_ndims(space);
    hssize_t points = H5Sget_simple_extent_npoints(space);
    size_t size = H5Tget_size(type);
    herr_t rc = 0;
    if (rank < 0 || points <= 0 || !size || H5Sget_simple_extent_type(space) == H5S_NULL ||
        H5Tdetect_class(type, H5T_VLEN) != 0) { /* nothing to write, or nothing a pattern can be */
        H5Sclose(space);
        return 0;
    }
    H5Sget_simple_extent_dims(space, dims, NULL);
    hsize_t rows = rank ? dims[0] : 1, row = (hsize_t)points / (rows ? rows : 1) * size;
    hsize_t per = (64 << 20) / row; /* rows a slab, 64 MiB at most */
    per = per < 1 ? 1 : per > rows ? rows : per;
    char *buf = malloc(per * row);
    if (!buf) {
        H5Sclose(space);
        return -1;
    }
    h5_input_data(dset, buf, per * row);
    for (hsize_t first = 0; first < rows && rc >= 0; first += per) {
        hsize_t count[H5S_MAX_RANK], elements = (rows - first < per ? rows - first : per) * row / size;
        hid_t file = H5Scopy(space), mem = H5Screate_simple(1, &elements, NULL);
        memcpy(count, dims, sizeof count);
        start[0] = first;
        count[0] = elements * size / row;
        if (rank)
            H5Sselect_hyperslab(file, H5S_SELECT_SET, start, NULL, count, NULL);
        rc = H5Dwrite(dset, type, mem, file, H5P_DEFAULT, buf);
        H5Sclose(mem);
        H5Sclose(file);
    }
    free(buf);
    H5Sclose(space);
    return rc;
}

static void h5_release(hid_t id)
{
    if (id >= 0)
        H5Idec_ref(id);
}

/* A copy of space with no elements along its unlimited dimensions, or none (it has none): a dataset an
 * appending writer made before its first record (and extended as it wrote) is made so. */
static hid_t h5_empty_along_unlimited(hid_t space)
{
    hsize_t dims[H5S_MAX_RANK], maxdims[H5S_MAX_RANK];
    int rank = space < 0 ? -1 : H5Sget_simple_extent_dims(space, dims, maxdims), unlimited = 0;
    for (int d = 0; d < rank; d++)
        if (maxdims[d] == H5S_UNLIMITED)
            dims[d] = 0, unlimited = 1;
    return unlimited ? H5Screate_simple(rank, dims, maxdims) : H5I_INVALID_HID;
}

/* An attribute's recorded value (by meaning, templates/h5value.c.tmpl: its strings, sequences and
 * references made again, the references to this file's objects of the same paths); none for "". */
static herr_t h5_write_value(hid_t attr, hid_t type, const char *hex)
{
    unsigned char *record = hex[0] ? h5_unhex(hex) : NULL;
    herr_t rc = record ? H5Awrite(attr, type, h5_value(record, strlen(hex) / 2, attr)) : 0;
    free(record);
    return rc;
}

/* The attributes that hold references, made once every object they may name is: as H5DSattach_scale makes
 * DIMENSION_LIST and REFERENCE_LIST, after the objects (netCDF-4 attaches its dimensions last), so that the
 * headers they grow grow as the original's did. */
static herr_t h5_make_references(hid_t file, const struct h5_object *o, size_t n)
{
    herr_t rc = 0;
    for (size_t i = 1; i < n && rc >= 0; i++) {
        if (o[i].kind != 'a')
            continue;
        hid_t type = h5_decode(H5Tdecode, o[i].type);
        if (type >= 0 && H5Tdetect_class(type, H5T_REFERENCE) > 0) {
            hid_t space = h5_decode(H5Sdecode, o[i].space), obj = H5Oopen(file, o[i].name, H5P_DEFAULT);
            hid_t attr = obj < 0 ? H5I_INVALID_HID
                                 : H5Acreate2(obj, o[i].other, type, space, H5P_DEFAULT, H5P_DEFAULT);
            rc = attr < 0 ? -1 : h5_write_value(attr, type, o[i].value);
            h5_release(attr);
            h5_release(obj);
            h5_release(space);
        }
        h5_release(type);
    }
    return rc;
}

/* Links made in their recorded creation order, objects at their addresses: an object whose link comes
 * after one not made yet is made anonymously and held open, and linked (H5Olink) once every link before
 * it in its group is. */
struct h5_links {
    const struct h5_object *o;
    size_t n, nord, pending;
    size_t *ord;          /* the rows with a link order, by group, then order */
    size_t *first, *next; /* by position in ord: its group's first position; a first one's next to link */
    size_t *pos;          /* by row: its position in ord, or n when it has none */
    hid_t *held;          /* by row: the object made and not yet linked */
    unsigned char *state; /* by row: 0 not made, 1 made and not linked, 2 linked */
};

static const struct h5_object *h5_sorting;

/* The length of the path of the group a link is in ("/" for the root's). */
static size_t h5_group_len(const char *name)
{
    const char *slash = strrchr(name, '/');
    return slash && slash != name ? (size_t)(slash - name) : 1;
}

static int h5_by_group_order(const void *x, const void *y)
{
    size_t i = *(const size_t *)x, j = *(const size_t *)y;
    const struct h5_object *a = &h5_sorting[i], *b = &h5_sorting[j];
    size_t na = h5_group_len(a->name), nb = h5_group_len(b->name);
    int c = strncmp(a->name, b->name, na < nb ? na : nb);
    if (c == 0 && na != nb)
        c = na < nb ? -1 : 1;
    if (c == 0 && a->link_order != b->link_order)
        c = a->link_order < b->link_order ? -1 : 1;
    return c ? c : i < j ? -1 : i > j;
}

static void h5_links_init(struct h5_links *L, const struct h5_object *o, size_t n)
{
    memset(L, 0, sizeof *L);
    L->o = o;
    L->n = n;
    L->ord = malloc((n + 1) * sizeof *L->ord);
    L->first = malloc((n + 1) * sizeof *L->first);
    L->next = malloc((n + 1) * sizeof *L->next);
    L->pos = malloc((n + 1) * sizeof *L->pos);
    L->held = malloc((n + 1) * sizeof *L->held);
    L->state = calloc(n + 1, 1);
    if (!L->ord || !L->first || !L->next || !L->pos || !L->held || !L->state)
        abort();
    for (size_t i = 0; i < n; i++) {
        L->pos[i] = n;
        L->held[i] = H5I_INVALID_HID;
        if (o[i].link_order > 0 && strchr("gtdls", o[i].kind))
            L->ord[L->nord++] = i;
    }
    h5_sorting = o;
    qsort(L->ord, L->nord, sizeof *L->ord, h5_by_group_order);
    for (size_t p = 0; p < L->nord; p++) {
        const char *name = o[L->ord[p]].name, *before = p ? o[L->ord[p - 1]].name : NULL;
        size_t len = h5_group_len(name);
        int same = before && h5_group_len(before) == len && !strncmp(before, name, len);
        L->first[p] = same ? L->first[p - 1] : p;
        L->next[p] = p;
        L->pos[L->ord[p]] = p;
    }
}

static void h5_links_free(struct h5_links *L)
{
    for (size_t i = 0; i < L->n; i++)
        if (L->held[i] >= 0)
            H5Idec_ref(L->held[i]);
    free(L->ord);
    free(L->first);
    free(L->next);
    free(L->pos);
    free(L->held);
    free(L->state);
}

/* Whether the file has a link of that name now. */
static int h5_exists(hid_t file, const char *name, size_t len)
{
    char path[4096];
    if (len == 1 && name[0] == '/')
        return 1;
    if (len >= sizeof path)
        return 0;
    memcpy(path, name, len);
    path[len] = 0;
    htri_t yes = 0;
    H5E_BEGIN_TRY
    {
        yes = H5Lexists(file, path, H5P_DEFAULT);
    }
    H5E_END_TRY
    return yes > 0;
}

/* Whether row i's link can be made now: every link before it in its group is, and what it names is there. */
static int h5_linkable(hid_t file, const struct h5_links *L, size_t i)
{
    size_t p = L->pos[i];
    const struct h5_object *o = &L->o[i];
    return L->next[L->first[p]] == p && h5_exists(file, o->name, h5_group_len(o->name)) &&
           (o->kind != 'l' || h5_exists(file, o->other, strlen(o->other)));
}

/* The links whose turn has come (force: all that are left, in their order); negative when HDF5 refuses one.
 */
static herr_t h5_link_pending(hid_t file, hid_t lcpl, struct h5_links *L, int force)
{
    herr_t rc = 0;
    for (int progress = 1; progress && L->pending && rc >= 0;) {
        progress = 0;
        for (size_t p = 0; p < L->nord && rc >= 0; p++) {
            if (L->first[p] != p)
                continue;
            for (size_t q = L->next[p]; q < L->nord && L->first[q] == p && rc >= 0; q = ++L->next[p]) {
                size_t i = L->ord[q];
                if (L->state[i] == 0 && !force) /* not made yet: the links after it wait */
                    break;
                if (L->state[i] == 1) {
                    if (!force && !h5_linkable(file, L, i))
                        break;
                    const struct h5_object *o = &L->o[i];
                    rc = o->kind == 'l'   ? H5Lcreate_hard(file, o->other, file, o->name, lcpl, H5P_DEFAULT)
                         : o->kind == 's' ? H5Lcreate_soft(o->other, file, o->name, lcpl, H5P_DEFAULT)
                                          : H5Olink(L->held[i], file, o->name, lcpl, H5P_DEFAULT);
                    h5_release(L->held[i]);
                    L->held[i] = H5I_INVALID_HID;
                    L->pending--;
                    progress = 1;
                }
                L->state[i] = 2;
            }
        }
    }
    return rc;
}

/* An object by its name, linked or still held (a new reference either way). */
static hid_t h5_open(hid_t file, const struct h5_links *L, const char *name)
{
    for (size_t i = 0; L->pending && i < L->n; i++)
        if (L->state[i] == 1 && L->held[i] >= 0 && !strcmp(L->o[i].name, name)) {
            H5Iinc_ref(L->held[i]);
            return L->held[i];
        }
    return H5Oopen(file, name, H5P_DEFAULT);
}

/* Makes one object (not the file's row) from its row; negative when HDF5 refuses it. *last is the object
 * made last, kept open for its attributes, as a writer adds them (closing it first would write a chunked
 * dataset's cached chunks before them, and move what follows). */
static herr_t h5_make_object(hid_t file, hid_t lcpl, struct h5_links *L, size_t i, int data_later,
                             int objects_made, hid_t *last, const char **name)
{
    const struct h5_object *o = &L->o[i];
    if (o->kind != 'a') { /* the last object is done: closing it writes its cached chunks */
        h5_release(*last);
        *last = H5I_INVALID_HID;
    }
    /* made where its link comes in its group's order, else anonymously, to be linked in its turn */
    int held = L->pos[i] < L->n && !h5_linkable(file, L, i);
    if (L->pos[i] < L->n && !held)
        L->next[L->first[L->pos[i]]]++, L->state[i] = 2;
    int named = o->kind == 'd' && o->other[0];
    hid_t type = named ? h5_open(file, L, o->other) : h5_decode(H5Tdecode, o->type);
    hid_t space = h5_decode(H5Sdecode, o->space), plist = h5_decode(H5Pdecode, o->plist);
    hid_t made = H5I_INVALID_HID;
    herr_t rc = 0;
    int later = 0;
    if (o->kind == 'g' && held) {
        made = H5Gcreate_anon(file, plist, H5P_DEFAULT);
    } else if (o->kind == 'g') {
        H5E_BEGIN_TRY
        {
            made = H5Gcreate2(file, o->name, lcpl, plist, H5P_DEFAULT);
        }
        H5E_END_TRY
        if (made < 0) /* made before as the parent of an object with a lower address */
            made = H5Gopen2(file, o->name, H5P_DEFAULT);
    } else if (o->kind == 't') {
        rc = held ? H5Tcommit_anon(file, type, H5P_DEFAULT, H5P_DEFAULT)
                  : H5Tcommit2(file, o->name, type, lcpl, H5P_DEFAULT, H5P_DEFAULT);
    } else if (o->kind == 'd') {
        hid_t empty = data_later ? h5_empty_along_unlimited(space) : H5I_INVALID_HID;
        made = held ? H5Dcreate_anon(file, type, empty >= 0 ? empty : space, plist, H5P_DEFAULT)
                    : H5Dcreate2(file, o->name, type, empty >= 0 ? empty : space, lcpl, plist, H5P_DEFAULT);
        rc = made < 0 ? -1 : data_later ? 0 : h5_write_all(made, type, o->chunks);
        h5_release(empty);
    } else if (o->kind == 'w') { /* grown to its extent (made empty along an unlimited one), then written */
        hsize_t dims[H5S_MAX_RANK];
        hid_t empty = h5_empty_along_unlimited(space);
        made = h5_open(file, L, o->name);
        hid_t stored = made < 0 ? H5I_INVALID_HID : H5Dget_type(made);
        if (stored < 0 || (empty >= 0 && (H5Sget_simple_extent_dims(space, dims, NULL) < 0 ||
                                          H5Dset_extent(made, dims) < 0)))
            rc = -1;
        else
            rc = h5_write_all(made, stored, o->chunks);
        h5_release(empty);
        h5_release(stored);
    } else if (o->kind == 'a' && !objects_made && H5Tdetect_class(type, H5T_REFERENCE) > 0) {
        later = 1; /* made last (h5_make_references) */
    } else if (o->kind == 'a') {
        int same = *last >= 0 && !strcmp(*name, o->name);
        hid_t obj = same ? *last : h5_open(file, L, o->name);
        made = H5Acreate2(obj, o->other, type, space, H5P_DEFAULT, H5P_DEFAULT);
        if (made >= 0)
            rc = h5_write_value(made, type, o->value);
        if (!same)
            h5_release(obj);
    } else if (o->kind == 'l' && !held) {
        rc = H5Lcreate_hard(file, o->other, file, o->name, lcpl, H5P_DEFAULT);
    } else if (o->kind == 's' && !held) {
        rc = H5Lcreate_soft(o->other, file, o->name, lcpl, H5P_DEFAULT);
    }
    if (made < 0 && !later && (o->kind == 'g' || o->kind == 'd' || o->kind == 'w' || o->kind == 'a'))
        rc = -1;
    if (held && rc >= 0) { /* linked in its turn (h5_link_pending) */
        hid_t keep = o->kind == 't' ? type : made;
        if (keep >= 0)
            H5Iinc_ref(keep);
        L->held[i] = keep;
        L->state[i] = 1;
        L->pending++;
    }
    if (o->kind != 'a') {
        *last =
            o->kind == 't' ? (held ? (H5Iinc_ref(type), type) : H5Topen2(file, o->name, H5P_DEFAULT)) : made;
        *name = o->name;
        made = H5I_INVALID_HID;
    }
    if (rc >= 0 && o->kind != 'a' && o->kind != 'w' && h5_link_pending(file, lcpl, L, 0) < 0)
        rc = -1;
    h5_release(made);
    h5_release(plist);
    h5_release(space);
    h5_release(type);
    return rc;
}

/* Makes the HDF5 file at path from its objects, o[0] being the file's row; -1 when HDF5 refuses one. */
static int make_h5_input(const char *path, const struct h5_object *o, size_t n)
{
    static const H5F_libver_t by_superblock[] = {H5F_LIBVER_EARLIEST, H5F_LIBVER_EARLIEST, H5F_LIBVER_V18,
                                                 H5F_LIBVER_V110};
    unsigned char *version = h5_unhex(o[0].value);
    hid_t fcpl = h5_decode(H5Pdecode, o[0].plist), fapl = H5Pcreate(H5P_FILE_ACCESS);
    hid_t lcpl = H5Pcreate(H5P_LINK_CREATE);
    H5Pset_libver_bounds(fapl, by_superblock[version && version[0] < 4 ? version[0] : 3], H5F_LIBVER_LATEST);
    H5Pset_create_intermediate_group(lcpl, 1);
    free(version);
    hid_t file = H5Fcreate(path, H5F_ACC_TRUNC, fcpl, fapl);
    int rc = file < 0 ? -1 : 0;
    hid_t last = H5I_INVALID_HID;
    const char *name = "";
    struct h5_links links;
    h5_links_init(&links, o, n);
    size_t last_object = 0; /* past it, attributes holding references are made in their place */
    for (size_t i = 1; i < n; i++)
        if (o[i].kind == 'g' || o[i].kind == 'd' || o[i].kind == 't')
            last_object = i;
    for (size_t i = 1; i < n && rc == 0; i++) {
        int data_later = 0; /* a 'w' row writes this dataset's data */
        for (size_t k = i + 1; o[i].kind == 'd' && k < n && !data_later; k++)
            data_later = o[k].kind == 'w' && !strcmp(o[k].name, o[i].name);
        rc = h5_make_object(file, lcpl, &links, i, data_later, i > last_object, &last, &name) < 0 ? -1 : 0;
    }
    h5_release(last);
    if (rc == 0 &&
        h5_link_pending(file, lcpl, &links, 1) < 0) /* whose turn never came: what they wait for is not */
        rc = -1;
    h5_links_free(&links);
    if (rc == 0 && h5_make_references(file, o, last_object) < 0)
        rc = -1;
    if (file >= 0 && H5Fclose(file) < 0)
        rc = -1;
    h5_release(lcpl);
    h5_release(fapl);
    h5_release(fcpl);
    return rc;
}
