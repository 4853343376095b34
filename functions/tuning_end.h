/* tuning_end.h: undoes the macros an expansion of tuning.def defined. */
#undef TUNE_INFO
#undef TUNE_USE
#undef TUNE_TWIN
#undef TUNE_DATA
#undef TUNE_HINT
#undef TUNE_PROP
