# written by rs-report; run: gnuplot plot-attempts-fork-at-scale.gp
set terminal svg size 960,540 dynamic noenhanced font 'sans,12'
set output 'plot-attempts-fork-at-scale.svg'
set datafile separator '\t'
set title 'fork-at-scale: faults by attempts (median of runs, log scale)'
set key outside right top
set grid ytics
set datafile missing 'n/a'
set ylabel 'faults'
set logscale y
set yrange [0.5:2.86928e+06]
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.75
set xtics rotate by -30 left
plot 'plot-attempts-fork-at-scale.dat' using 2:xtic(1) title columnheader(2), \
     'plot-attempts-fork-at-scale.dat' using 3 title columnheader(3), \
     'plot-attempts-fork-at-scale.dat' using 4 title columnheader(4), \
     'plot-attempts-fork-at-scale.dat' using 5 title columnheader(5), \
     'plot-attempts-fork-at-scale.dat' using 6 title columnheader(6), \
     'plot-attempts-fork-at-scale.dat' using 7 title columnheader(7), \
     'plot-attempts-fork-at-scale.dat' using 8 title columnheader(8), \
     'plot-attempts-fork-at-scale.dat' skip 1 using ($0 + (0 - 3.0) / 8.0):(valid(2) && $2 > 0.7 ? $2 : 0.7):(valid(2) ? sprintf('%g', $2) : 'n/a') with labels rotate left font ',8' offset 0,0.4 notitle, \
     'plot-attempts-fork-at-scale.dat' skip 1 using ($0 + (1 - 3.0) / 8.0):(valid(3) && $3 > 0.7 ? $3 : 0.7):(valid(3) ? sprintf('%g', $3) : 'n/a') with labels rotate left font ',8' offset 0,0.4 notitle, \
     'plot-attempts-fork-at-scale.dat' skip 1 using ($0 + (2 - 3.0) / 8.0):(valid(4) && $4 > 0.7 ? $4 : 0.7):(valid(4) ? sprintf('%g', $4) : 'n/a') with labels rotate left font ',8' offset 0,0.4 notitle, \
     'plot-attempts-fork-at-scale.dat' skip 1 using ($0 + (3 - 3.0) / 8.0):(valid(5) && $5 > 0.7 ? $5 : 0.7):(valid(5) ? sprintf('%g', $5) : 'n/a') with labels rotate left font ',8' offset 0,0.4 notitle, \
     'plot-attempts-fork-at-scale.dat' skip 1 using ($0 + (4 - 3.0) / 8.0):(valid(6) && $6 > 0.7 ? $6 : 0.7):(valid(6) ? sprintf('%g', $6) : 'n/a') with labels rotate left font ',8' offset 0,0.4 notitle, \
     'plot-attempts-fork-at-scale.dat' skip 1 using ($0 + (5 - 3.0) / 8.0):(valid(7) && $7 > 0.7 ? $7 : 0.7):(valid(7) ? sprintf('%g', $7) : 'n/a') with labels rotate left font ',8' offset 0,0.4 notitle, \
     'plot-attempts-fork-at-scale.dat' skip 1 using ($0 + (6 - 3.0) / 8.0):(valid(8) && $8 > 0.7 ? $8 : 0.7):(valid(8) ? sprintf('%g', $8) : 'n/a') with labels rotate left font ',8' offset 0,0.4 notitle
