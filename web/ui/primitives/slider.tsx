import * as RadixSlider from '@radix-ui/react-slider';
import { useId } from 'react';

export interface SliderProps {
  label: string;
  value: number;
  min: number;
  max: number;
  step?: number;
  onValueChange: (value: number) => void;
  /** How the current value reads next to the label, e.g. `${v}px`. */
  format?: (value: number) => string;
}

export function Slider({ label, value, min, max, step = 1, onValueChange, format = String }: SliderProps) {
  const labelId = useId();
  return (
    <div>
      <div className="mb-2 flex items-center justify-between text-sm">
        <span id={labelId} className="font-medium text-slate-700">
          {label}
        </span>
        <span className="font-mono text-xs text-slate-500">{format(value)}</span>
      </div>
      <RadixSlider.Root
        value={[value]}
        min={min}
        max={max}
        step={step}
        onValueChange={(values) => {
          const [next] = values;
          if (next !== undefined) onValueChange(next);
        }}
        className="relative flex h-5 w-full touch-none select-none items-center"
      >
        <RadixSlider.Track className="relative h-1.5 grow rounded-full bg-slate-200">
          <RadixSlider.Range className="absolute h-full rounded-full bg-blue-600" />
        </RadixSlider.Track>
        <RadixSlider.Thumb
          aria-labelledby={labelId}
          aria-valuetext={format(value)}
          className="block size-4 rounded-full border-2 border-blue-600 bg-white shadow focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600"
        />
      </RadixSlider.Root>
    </div>
  );
}
