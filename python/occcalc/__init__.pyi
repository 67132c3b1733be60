from typing import Any, Dict, List, Optional, Tuple, Union

__version__: str

class Error(ValueError): ...

_Value = Union[int, str, None]

class Result:
    @property
    def occupancy(self) -> float: ...
    @property
    def occupancy_percent(self) -> float: ...
    @property
    def blocks_per_sm(self) -> int: ...
    @property
    def active_warps_per_sm(self) -> int: ...
    @property
    def max_warps_per_sm(self) -> int: ...
    @property
    def limiters(self) -> List[str]: ...
    @property
    def limits(self) -> Dict[str, Optional[int]]: ...
    @property
    def reasons(self) -> Dict[str, str]: ...
    @property
    def model(self) -> str: ...
    @property
    def unit(self) -> str: ...
    @property
    def arch(self) -> str: ...
    @property
    def gpu(self) -> Optional[str]: ...
    def to_dict(self) -> Dict[str, Any]: ...

def occupancy(
    *,
    cc: Union[str, int, float, None] = ...,
    gpu: Optional[str] = ...,
    threads: _Value = ...,
    regs: _Value = ...,
    smem: _Value = ...,
    dyn_smem: _Value = ...,
    carveout: _Value = ...,
    cache: Optional[str] = ...,
    barriers: _Value = ...,
    grid: _Value = ...,
    sm_count: _Value = ...,
    gfx: Optional[str] = ...,
    vgprs: _Value = ...,
    agprs: _Value = ...,
    sgprs: _Value = ...,
    lds: _Value = ...,
    wave32: Optional[bool] = ...,
    wave64: Optional[bool] = ...,
    cu_mode: Optional[bool] = ...,
    wgp_mode: Optional[bool] = ...,
    model: Optional[str] = ...,
) -> Result: ...
def occupancy_many(
    threads: Any,
    regs: Any = ...,
    smem: Any = ...,
    dyn_smem: Any = ...,
    *,
    vgprs: Any = ...,
    sgprs: Any = ...,
    lds: Any = ...,
    **request: Any,
) -> Tuple[Any, Any]: ...
def triton_occupancy(kernel: Any, **launch: Any) -> Result: ...
def suggest(**request: Any) -> Dict[str, Any]: ...
def sweep(vary: str, **request: Any) -> Dict[str, Any]: ...
def inspect(*paths: Any, kernel: Optional[str] = ..., arch: Optional[str] = ..., **launch: Any) -> Dict[str, Any]: ...
def gpus() -> List[Dict[str, Any]]: ...
def archs() -> List[Dict[str, Any]]: ...
