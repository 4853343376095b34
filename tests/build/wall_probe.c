/* wall_probe.c: a program of no component that includes WALL_PROBE_HEADER,
 * one component's header. tests/build/walls.sh builds one per probe: it
 * compiles only where the header is the component's public one. */
#include WALL_PROBE_HEADER

int main(void)
{
    return 0;
}
