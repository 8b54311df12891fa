#pragma once
#define ELEMENT_OFFSET 1
