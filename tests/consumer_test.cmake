message(STATUS "consumer")
