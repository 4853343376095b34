/* table_macros_end.h: undoes table_macros.h. */
#undef IN
#undef OUT
#undef SIG
#undef NEW
#undef VA
#undef DERIVED
#undef VARIADIC
#undef COLL
#undef CREATES
#undef DESTROYS
#undef DATA
#undef RD
#undef WR
#undef META
#undef NONBLOCK
#undef NODECL
#undef OPAQUE
