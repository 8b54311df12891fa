#pragma once
#define NEIGHBOUR_VALUE 42
