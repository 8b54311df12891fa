#include "h06.h"
