# written by rs-report; run: gnuplot plot-attempts-file-major.gp
set terminal svg size 960,540 dynamic noenhanced font 'sans,12'
set output 'plot-attempts-file-major.svg'
set datafile separator '\t'
set title 'file-major: faults by attempts (median of runs, log scale)'
set key outside right top
set grid ytics
set ylabel 'faults'
set logscale y
set yrange [0.5:*]
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.75
set xtics rotate by -30 left
plot 'plot-attempts-file-major.dat' using 2:xtic(1) title columnheader(2), \
     'plot-attempts-file-major.dat' using 3 title columnheader(3)
