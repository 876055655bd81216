/** Public API of the MaRCO shuffle: configuration keys, partial-reducer setters, counters. */
package org.apache.hadoop.mapreduce.marco;
